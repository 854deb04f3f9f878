package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpSyncClient;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** MCP over streamable HTTP at /mcp, with the SDK's own client and the REST keys. */
@Timeout(120)
class McpHttpTest {

  @Test
  void toolsWorkInTheKeysNamespace() throws Exception {
    try (TestServer s = TestServer.start(); McpSyncClient c = McpClients.http(s.server.baseUrl(), TestServer.TEAM_WRITE)) {
      c.initialize();
      McpToolsContract.exercise(c, "team-a");
      // what MCP wrote is in team-a, visible over REST, and nowhere else
      assertThat(s.http.get("/v1/namespaces/team-a/status", TestServer.ADMIN).json().get("turns").asInt()).isEqualTo(1);
      assertThat(s.http.get("/v1/namespaces/alice/status", TestServer.ADMIN).status()).isEqualTo(404);
    }
  }

  @Test
  void keysAreEnforced() throws Exception {
    try (TestServer s = TestServer.start()) {
      assertThatThrownBy(() -> {
        try (McpSyncClient c = McpClients.http(s.server.baseUrl(), null)) {
          c.initialize();
        }
      }).isNotNull();
      assertThatThrownBy(() -> {
        try (McpSyncClient c = McpClients.http(s.server.baseUrl(), "wrong-key")) {
          c.initialize();
        }
      }).isNotNull();
      Http.Res raw = s.http.post("/mcp", null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
      assertThat(raw.status()).isEqualTo(401);
      assertThat(raw.code()).isEqualTo("unauthorized");
      // a read-only key may recall but not remember; its namespace is its own (alice)
      s.http.post("/v1/namespaces/alice/sessions/s/turns", TestServer.ALICE_WRITE, RouteSamples.TURNS);
      try (McpSyncClient c = McpClients.http(s.server.baseUrl(), TestServer.ALICE_READ)) {
        c.initialize();
        var denied = McpClients.call(c, "remember", Map.of("note", "sneaky"));
        assertThat(denied.isError()).isTrue();
        assertThat(McpClients.text(denied)).startsWith("forbidden");
        var recall = McpClients.json(McpClients.call(c, "recall", Map.of("question", "What pet did Nadia adopt?")));
        assertThat(recall.get("namespace").asText()).isEqualTo("alice");
        assertThat(recall.get("evidence").toString()).contains("Miso");
      }
      // the admin key (scope *) has no default: MCP uses the server's namespace, and forget-everything needs admin
      try (McpSyncClient c = McpClients.http(s.server.baseUrl(), TestServer.BOB_WRITE)) {
        c.initialize();
        McpClients.call(c, "remember", Map.of("note", "Bob likes jazz."));
        var all = McpClients.call(c, "forget", Map.of("everything", true));
        assertThat(all.isError()).isTrue();
        assertThat(McpClients.json(McpClients.call(c, "status", Map.of())).get("namespace").asText()).isEqualTo("bob");
      }
    }
  }
}
