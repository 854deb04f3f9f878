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

  /**
   * The tools act on namespaces with any name the library accepts: a key's default namespace in
   * ADK's {@code <app>/<user>} form, the server's {@code --mcp-namespace} with a space, sessions
   * with {@code /} and non-ASCII; and they take every budget the library takes.
   */
  @Test
  void toolsReachEveryNameTheLibraryStores() throws Exception {
    String adk = "adk-secret-0123456789abcdef";
    java.util.List<dev.lychee.server.auth.ApiKey> keys = new java.util.ArrayList<>(TestServer.keys().keys());
    keys.add(TestServer.key("adk", adk, dev.lychee.server.auth.Right.WRITE, "myapp/alice", "myapp/*"));
    ServerConfig config = ServerConfig.builder().port(0).keys(dev.lychee.server.auth.ApiKeys.of(keys)).mcpNamespace("Alice Smith").build();
    try (TestServer s = TestServer.start(config)) {
      s.memory.append("myapp/alice", "adk/session 1", java.util.List.of(dev.lychee.api.Turn.user("Nadia", "Nadia adopted a grey cat called Miso.")));
      s.memory.flush("myapp/alice", "adk/session 1");
      s.memory.append("Alice Smith", "jos\u00e9/1", java.util.List.of(dev.lychee.api.Turn.user("Ana", "The spare key is under the blue flower pot.")));
      s.memory.flush("Alice Smith", "jos\u00e9/1");
      try (McpSyncClient c = McpClients.http(s.server.baseUrl(), adk)) {
        c.initialize();
        var recall = McpClients.json(McpClients.call(c, "recall", Map.of("question", "What pet did Nadia adopt?",
            "token_budget", dev.lychee.api.Question.MAX_TOKEN_BUDGET)));
        assertThat(recall.get("namespace").asText()).isEqualTo("myapp/alice");
        assertThat(recall.get("evidence").toString()).contains("Miso");
        var remembered = McpClients.call(c, "remember", Map.of("session", "run/2 \u00e9", "note", "Nadia's cat sleeps on the piano."));
        assertThat(remembered.isError()).as(McpClients.text(remembered)).isNotEqualTo(Boolean.TRUE);
        assertThat(McpClients.json(McpClients.call(c, "list_sessions", Map.of())).get("items").findValuesAsText("session"))
            .containsExactlyInAnyOrder("adk/session 1", "run/2 \u00e9");
        var forgot = McpClients.call(c, "forget", Map.of("session", "adk/session 1"));
        assertThat(forgot.isError()).as(McpClients.text(forgot)).isNotEqualTo(Boolean.TRUE);
        assertThat(McpClients.json(forgot).get("turns").asInt()).isEqualTo(1);
        McpToolsContract.assertSchemaError(c, "remember", Map.of("session", "s".repeat(dev.lychee.api.Checks.MAX_NAME_LENGTH + 1), "note", "x"));
        McpToolsContract.assertSchemaError(c, "recall", Map.of("question", "x?", "token_budget", dev.lychee.api.Question.MAX_TOKEN_BUDGET + 1));
        var control = McpClients.call(c, "remember", Map.of("session", "bad\u0001name", "note", "x"));
        assertThat(control.isError()).isTrue();
        assertThat(McpClients.text(control)).startsWith("invalid-request").contains("control");
      }
      // a key without a default namespace acts on the server's, which has a space in it
      try (McpSyncClient c = McpClients.http(s.server.baseUrl(), TestServer.ADMIN)) {
        c.initialize();
        var recall = McpClients.json(McpClients.call(c, "recall", Map.of("question", "Where is the spare key?")));
        assertThat(recall.get("namespace").asText()).isEqualTo("Alice Smith");
        assertThat(recall.get("evidence").toString()).contains("blue flower pot");
        assertThat(McpClients.json(McpClients.call(c, "list_sessions", Map.of())).get("items").findValuesAsText("session"))
            .containsExactly("jos\u00e9/1");
        var all = McpClients.call(c, "forget", Map.of("everything", true));
        assertThat(all.isError()).as(McpClients.text(all)).isNotEqualTo(Boolean.TRUE);
      }
      // what MCP did is what REST lists
      assertThat(s.http.get("/v1/namespaces", TestServer.ADMIN).json().get("items").findValuesAsText("namespace"))
          .containsExactly("myapp/alice");
      assertThat(s.http.get("/v1/namespaces/myapp%2Falice/sessions", TestServer.ADMIN).json().get("items").findValuesAsText("session"))
          .containsExactly("run/2 \u00e9");
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
