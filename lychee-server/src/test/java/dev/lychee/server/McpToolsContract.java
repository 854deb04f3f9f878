package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.List;
import java.util.Map;

/** What every transport must do with the tools: list them, call each, refuse input that breaks a schema. */
final class McpToolsContract {
  static final List<String> TOOLS = List.of("ask", "forget", "list_sessions", "recall", "remember", "status");

  private McpToolsContract() {}

  static void exercise(McpSyncClient c, String expectedNamespace) throws Exception {
    List<McpSchema.Tool> tools = c.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(TOOLS);
    for (McpSchema.Tool t : tools) {
      assertThat(t.inputSchema()).containsEntry("type", "object").containsEntry("additionalProperties", false);
      assertThat(t.description()).isNotBlank();
    }
    CallToolResult remembered = McpClients.call(c, "remember", Map.of("session", "kitchen",
        "turns", List.of(Map.of("speaker", "Ana", "text", "The spare key is under the blue flower pot."))));
    assertThat(remembered.isError()).as(McpClients.text(remembered)).isNotEqualTo(Boolean.TRUE);
    assertThat(McpClients.json(remembered).get("namespace").asText()).isEqualTo(expectedNamespace);
    assertThat(McpClients.json(remembered).get("stored").asInt()).isEqualTo(1);
    McpClients.call(c, "remember", Map.of("note", "Ana's bike is red."));

    JsonNode recall = McpClients.json(McpClients.call(c, "recall", Map.of("question", "Where is the spare key?", "k", 5)));
    assertThat(recall.get("evidence").toString()).contains("blue flower pot");
    assertThat(recall.get("namespace").asText()).isEqualTo(expectedNamespace);
    JsonNode budgeted = McpClients.json(McpClients.call(c, "recall", Map.of("question", "Where is the spare key?", "token_budget", 60)));
    assertThat(budgeted.get("evidence_tokens").asInt()).isBetween(1, 60);
    assertThat(budgeted.get("token_budget").asInt()).isEqualTo(60);
    JsonNode askBudgeted = McpClients.json(McpClients.call(c, "ask", Map.of("question", "Where is the spare key?", "token_budget", 60)));
    assertThat(askBudgeted.get("evidence_tokens").asInt()).isBetween(0, 60);
    JsonNode ask = McpClients.json(McpClients.call(c, "ask", Map.of("question", "Where is the spare key?")));
    assertThat(ask.get("answer").asText()).isNotBlank();
    JsonNode sessions = McpClients.json(McpClients.call(c, "list_sessions", Map.of()));
    assertThat(sessions.get("items").findValuesAsText("session")).contains("kitchen", "mcp");
    JsonNode status = McpClients.json(McpClients.call(c, "status", Map.of()));
    assertThat(status.get("turns").asInt()).isEqualTo(2);
    // the same fields as GET .../status: the library's MemoryStatus
    assertThat(status.get("segments").get("encoded").asInt()).isPositive();
    assertThat(status.get("queued").asInt()).isZero();
    assertThat(status.get("stopped_sessions").asInt()).isZero();
    assertThat(status.has("oldest_pending_age_ms")).isTrue();
    assertThat(status.has("last_error")).isTrue();
    assertThat(status.get("idle").asBoolean()).isTrue();
    JsonNode forgot = McpClients.json(McpClients.call(c, "forget", Map.of("session", "kitchen")));
    assertThat(forgot.get("turns").asInt()).isEqualTo(1);
    assertThat(McpClients.json(McpClients.call(c, "status", Map.of())).get("turns").asInt()).isEqualTo(1);

    // schema errors: a missing required field, a wrong type, an unknown property
    assertSchemaError(c, "recall", Map.of("k", 3));
    assertSchemaError(c, "recall", Map.of("question", "x?", "k", "three"));
    assertSchemaError(c, "status", Map.of("namespace", "someone-else"));
    assertSchemaError(c, "recall", Map.of("question", "x?", "token_budget", 5));
    assertSchemaError(c, "remember", Map.of("turns", List.of(Map.of("speaker", "A"))));
  }

  static void assertSchemaError(McpSyncClient c, String tool, Map<String, Object> args) {
    Throwable thrown = catchThrowable(() -> {
      CallToolResult r = McpClients.call(c, tool, args);
      assertThat(r.isError()).as("%s %s -> %s", tool, args, r).isTrue();
    });
    if (thrown != null) {
      assertThat(thrown).isInstanceOf(io.modelcontextprotocol.spec.McpError.class);
    }
  }
}
