package dev.lychee.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The Host and Origin rules, header by header (the servers that apply them are in HostAndOriginTest). */
class OriginPolicyTest {
  private final OriginPolicy open = new OriginPolicy(true, "127.0.0.1", List.of());
  private final OriginPolicy keyed = new OriginPolicy(false, "0.0.0.0", List.of("https://lychee.example.com"));

  @Test
  void anOpenServerAnswersOnlyLoopbackHosts() {
    for (String host : new String[] {"127.0.0.1:8080", "localhost:8080", "LOCALHOST", "localhost.:8080", "[::1]:8080", "127.3.4.5",
        "[::ffff:127.0.0.1]:8080", "127.0.0.1"}) {
      assertThat(open.refusal(host, null)).as(host).isEmpty();
    }
    for (String host : new String[] {"evil.example:8080", "evil.example", "127.0.0.1.nip.io:8080", "localhost.evil.example",
        "10.0.0.1:8080", "0.0.0.0:8080", "[::2]:8080", "127.0.0.300", "[zz::1]", "", "2130706433"}) {
      assertThat(open.refusal(host, null)).as(host).hasValueSatisfying(d -> assertThat(d).contains("DNS rebinding"));
    }
    // the configured bind host counts, whatever its name (it had to resolve to loopback to be accepted)
    assertThat(new OriginPolicy(true, "my-box.local", List.of()).refusal("my-box.local:8080", null)).isEmpty();
    assertThat(new OriginPolicy(true, "::1", List.of()).refusal("[::1]:9000", null)).isEmpty();
    // no Host at all comes from no browser (HTTP/1.0 tools): nothing to judge
    assertThat(open.refusal(null, null)).isEmpty();
  }

  @Test
  void anOpenServerAnswersOnlyLoopbackOrigins() {
    for (String origin : new String[] {"http://127.0.0.1:8080", "http://localhost:3000", "https://localhost", "http://[::1]:8080",
        "http://127.0.0.2"}) {
      assertThat(open.refusal("127.0.0.1:8080", origin)).as(origin).isEmpty();
    }
    for (String origin : new String[] {"http://evil.example", "http://evil.example:8080", "null", "file://", "chrome-extension://abc",
        "http://127.0.0.1.evil.example", "garbage", "http://localhost@evil.example"}) {
      assertThat(open.refusal("127.0.0.1:8080", origin)).as(origin)
          .hasValueSatisfying(d -> assertThat(d).contains("loopback pages"));
    }
    // a rebound page is same-origin with its own Host: neither header saves it
    assertThat(open.refusal("evil.example:8080", "http://evil.example:8080")).isPresent();
  }

  @Test
  void aKeyedServerTakesAnyHostButOnlyItsOwnLoopbackAndAllowedOrigins() {
    assertThat(keyed.refusal("lychee.internal:8080", null)).isEmpty();
    assertThat(keyed.refusal("evil.example:8080", null)).isEmpty();
    assertThat(keyed.refusal("lychee.internal:8080", "http://lychee.internal:8080")).isEmpty();
    assertThat(keyed.refusal("Lychee.Internal", "https://lychee.internal")).isEmpty();
    assertThat(keyed.refusal("10.0.0.5:8080", "http://localhost:5173")).isEmpty();
    assertThat(keyed.refusal("127.0.0.1:8080", "https://lychee.example.com")).isEmpty();
    assertThat(keyed.refusal("127.0.0.1:8080", "https://LYCHEE.example.com/")).isEmpty();
    assertThat(keyed.refusal("lychee.internal:8080", "http://evil.example")).hasValueSatisfying(d -> assertThat(d)
        .contains("'http://evil.example'").contains("--allowed-origin"));
    assertThat(keyed.refusal("lychee.internal:8080", "http://lychee.internal:9090")).isPresent();
    assertThat(keyed.refusal("lychee.internal:8080", "http://lychee.example.com")).as("scheme counts").isPresent();
    assertThat(keyed.refusal("lychee.internal:8080", "null")).isPresent();
    assertThat(keyed.refusal(null, "http://evil.example")).isPresent();
  }

  @Test
  void refusalsShowHeadersBoundedAndOnOneLine() {
    String longHost = "a".repeat(500) + ".example";
    assertThat(open.refusal(longHost, null).orElseThrow()).hasSizeLessThan(400).contains("...");
    assertThat(keyed.refusal("h", "http://e\u0007vil.example").orElseThrow()).doesNotContain("\u0007");
  }

  @Test
  void allowedOriginsAreSchemeHostAndPort() {
    assertThat(OriginPolicy.normalizeOrigin("HTTPS://Lychee.Example.com:8443/")).isEqualTo("https://lychee.example.com:8443");
    for (String bad : new String[] {"lychee.example.com", "ftp://x", "https://x/app", "https://x?q=1", "https://u@x", "*", "null"}) {
      assertThatThrownBy(() -> OriginPolicy.normalizeOrigin(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("scheme://host[:port]");
    }
  }

  @Test
  void hostsLoseTheirPortBracketsAndFinalDot() {
    assertThat(OriginPolicy.hostOnly("[::1]:8080")).isEqualTo("::1");
    assertThat(OriginPolicy.hostOnly("::1")).isEqualTo("::1");
    assertThat(OriginPolicy.hostOnly("LocalHost.:80")).isEqualTo("localhost");
    assertThat(OriginPolicy.hostOnly(null)).isEmpty();
  }
}
