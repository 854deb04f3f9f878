package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.PresentedKey;
import dev.lychee.server.http.ProblemCode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerConfigTest {
  @Test
  void withoutKeysOnlyLoopbackIsAllowed() {
    assertThat(ServerConfig.builder().build().loopback()).isTrue();
    assertThat(ServerConfig.builder().host("localhost").build().loopback()).isTrue();
    assertThat(ServerConfig.builder().host("::1").build().loopback()).isTrue();
    assertThatThrownBy(() -> ServerConfig.builder().host("0.0.0.0").build())
        .hasMessageContaining("loopback").hasMessageContaining("--keys");
    assertThat(ServerConfig.builder().host("0.0.0.0").keys(TestServer.keys()).build().loopback()).isFalse();
  }

  @Test
  void settingsAreValidated() {
    assertThatThrownBy(() -> ServerConfig.builder().port(70000).build()).hasMessageContaining("port");
    assertThatThrownBy(() -> ServerConfig.builder().maxBodyBytes(10).build()).hasMessageContaining("maxBodyBytes");
    assertThatThrownBy(() -> ServerConfig.builder().mcpNamespace("a\tb").build()).hasMessageContaining("mcpNamespace");
    assertThatThrownBy(() -> ServerConfig.builder().host(" ").build()).hasMessageContaining("host");
    assertThatThrownBy(() -> ServerConfig.builder().allowedOrigin("https://app.example").build())
        .hasMessageContaining("allowed origins need API keys");
    assertThatThrownBy(() -> ServerConfig.builder().keys(TestServer.keys()).allowedOrigin("app.example").build())
        .hasMessageContaining("scheme://host[:port]");
    assertThat(ServerConfig.builder().keys(TestServer.keys()).allowedOrigin("HTTPS://App.Example/").build().allowedOrigins())
        .containsExactly("https://app.example");
  }

  @Test
  void theRecordConstructorChecksWhatTheBuilderChecks() {
    // the public constructor of a record is the obvious call: it must not bypass "no keys only on loopback"
    assertThatThrownBy(() -> new ServerConfig("0.0.0.0", 8080, 1 << 20, ApiKeys.none(), "default", List.of(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0.0.0.0").hasMessageContaining("loopback");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", 8080, 0, ApiKeys.none(), "default", List.of(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBodyBytes");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", 8080, 1 << 20, null, "default", List.of(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keys");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", -1, 1 << 20, ApiKeys.none(), "default", List.of(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", 8080, 1 << 20, ApiKeys.none(), "a\tb", List.of(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mcpNamespace");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", 8080, 1 << 20, ApiKeys.none(), "default", null, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("extraRoutes");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", 8080, 1 << 20, ApiKeys.none(), "default", List.of(),
        java.nio.file.Path.of("/nonexistent/eval.json"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("evaluation");
    assertThatThrownBy(() -> new ServerConfig("127.0.0.1", 8080, 1 << 20, ApiKeys.none(), "default", List.of(), null, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowedOrigins");
    ServerConfig ok = new ServerConfig("0.0.0.0", 0, 1 << 20, TestServer.keys(), "default", List.of(), null);
    assertThat(ok.allowedOrigins()).isEmpty();
    assertThat(ok.loopback()).isFalse();
  }

  @Test
  void keysAreReadFromTheUsualHeaders() {
    assertThat(PresentedKey.from("Bearer abc", null)).isEqualTo("abc");
    assertThat(PresentedKey.from("Token abc", null)).isEqualTo("abc");
    assertThat(PresentedKey.from("token  abc ", null)).isEqualTo("abc");
    // another scheme (a proxy's Basic credentials) does not hide X-API-Key
    assertThat(PresentedKey.from("Basic dXNlcjpwYXNz", "secret")).isEqualTo("secret");
    assertThat(PresentedKey.from("Negotiate abc", " secret ")).isEqualTo("secret");
    assertThat(PresentedKey.from("", "secret")).isEqualTo("secret");
    assertThat(PresentedKey.from("Bearer abc", "other")).isEqualTo("abc");
    // alone, it gets a 401 that names a registered scheme, but never echoes a word that could be a key
    assertThatThrownBy(() -> PresentedKey.from("Basic dXNlcjpwYXNz", null)).isInstanceOfSatisfying(ApiException.class, e -> {
      assertThat(e.code()).isEqualTo(ProblemCode.UNAUTHORIZED);
      assertThat(e.getMessage()).contains("unsupported Authorization scheme 'basic'").contains("X-API-Key")
          .doesNotContain("dXNlcjpwYXNz");
      assertThat(e.headers()).containsKey("WWW-Authenticate");
    });
    assertThatThrownBy(() -> PresentedKey.from("sk-live-0123456789", null))
        .hasMessageContaining("no scheme").message().doesNotContain("sk-live");
    assertThatThrownBy(() -> PresentedKey.from("sk-live-0123456789 extra", null))
        .hasMessageContaining("unsupported Authorization scheme;").message().doesNotContain("sk-live");
    assertThat(PresentedKey.from(null, " abc")).isEqualTo("abc");
    assertThat(PresentedKey.from(null, null)).isNull();
  }

  @Test
  void openServerSaysSoAndServesEveryNamespace() {
    try (TestServer s = TestServer.start(ServerConfig.builder().port(0).build())) {
      assertThat(s.http.post("/v1/namespaces/anyone/sessions/s/turns", null, RouteSamples.TURNS).status()).isEqualTo(202);
      assertThat(s.http.get("/v1/namespaces/anyone/status", null).status()).isEqualTo(200);
      assertThat(s.http.get("/metrics", null).status()).isEqualTo(200);
    }
  }

  /** The MCP namespace follows the library's name rule, the one every route applies. */
  @Test
  void mcpNamespaceFollowsTheLibrarysNameRule() {
    for (String ns : new String[] {"myapp/alice", "Alice Smith", "jos\u00e9", "x".repeat(dev.lychee.api.Checks.MAX_NAME_LENGTH)}) {
      assertThat(ServerConfig.builder().mcpNamespace(ns).build().mcpNamespace()).isEqualTo(ns);
    }
    assertThatThrownBy(() -> ServerConfig.builder().mcpNamespace("x".repeat(dev.lychee.api.Checks.MAX_NAME_LENGTH + 1)).build())
        .hasMessageContaining("mcpNamespace").hasMessageContaining("256");
    assertThatThrownBy(() -> ServerConfig.builder().mcpNamespace("  ").build()).hasMessageContaining("visible");
    assertThatThrownBy(() -> ServerConfig.builder().mcpNamespace(null).build()).hasMessageContaining("mcpNamespace");
  }
}
