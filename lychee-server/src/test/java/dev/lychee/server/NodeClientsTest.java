package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients from npm against Lychee on loopback: mem0's {@code MemoryClient} on the mem0-compatible
 * routes, and the TypeScript MCP SDK driving {@code lychee mcp} over stdio.
 */
@Timeout(240)
class NodeClientsTest {
  @TempDir Path dir;

  @BeforeEach
  void installed() {
    NodeClients.requireInstalled();
  }

  @Test
  void mem0MemoryClientAddsSearchesListsAndDeletes() throws Exception {
    try (TestServer s = TestServer.start()) {
      String out = NodeClients.run("mem0-client.mjs", Map.of(), s.server.baseUrl(), TestServer.ALICE_ADMIN, "alice");
      JsonNode r = Http.JSON.readTree(out);
      assertThat(r.get("add").size()).isEqualTo(2);
      assertThat(r.get("add").get(0).get("event").asText()).isEqualTo("ADD");
      assertThat(r.get("search").get("results").toString()).contains("Lisbon");
      assertThat(r.get("all").get("count").asInt()).isPositive();
      assertThat(r.get("all").get("results").get(0).get("userId").asText()).isEqualTo("alice");
      assertThat(r.get("deleted").get("message").asText()).contains("deleted");
      assertThat(r.get("after").get("count").asInt()).isZero();
      assertThat(r.get("foreign").asText()).isNotEqualTo("allowed");
      // deleteAll without run_id removed the whole namespace (it needs an admin key)
      assertThat(s.memory.store().countTurns("alice")).isZero();
    }
  }

  @Test
  void typeScriptMcpClientDrivesTheStdioServer() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String out = NodeClients.run("mcp-stdio.mjs", Map.of(), java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
        "dev.lychee.server.boot.ServerMain", "mcp", "--db", dir.resolve("ts.db").toString(), "--namespace", "ts");
    JsonNode r = Http.JSON.readTree(out);
    assertThat(r.get("tools").toString()).contains("remember", "recall", "ask", "forget", "list_sessions", "status");
    assertThat(r.get("remember").get("isError") == null || !r.get("remember").get("isError").asBoolean()).isTrue();
    assertThat(r.get("recall").get("content").get(0).get("text").asText()).contains("blue flower pot");
    assertThat(r.get("bad").toString()).containsAnyOf("\"isError\":true", "thrown");
  }
}
