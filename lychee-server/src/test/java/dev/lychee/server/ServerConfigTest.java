package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.server.http.PresentedKey;
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
  }

  @Test
  void keysAreReadFromTheUsualHeaders() {
    assertThat(PresentedKey.from("Bearer abc", null)).isEqualTo("abc");
    assertThat(PresentedKey.from("Token abc", null)).isEqualTo("abc");
    assertThat(PresentedKey.from("token  abc ", null)).isEqualTo("abc");
    assertThat(PresentedKey.from("Basic abc", null)).isEmpty();
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
