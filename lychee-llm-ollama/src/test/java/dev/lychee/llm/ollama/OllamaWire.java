package dev.lychee.llm.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.Role;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.util.ArrayList;
import java.util.List;

/** Builds response bodies in Ollama's wire format (non-streaming) for the scripted server. */
final class OllamaWire {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OllamaWire() {}

  static ScriptedHttpServer.Response chat(String text, Integer promptEvalCount, Integer evalCount) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", "test-model");
    root.put("created_at", "2026-01-05T10:00:00.000000Z");
    root.putObject("message").put("role", "assistant").put("content", text);
    root.put("done_reason", "stop");
    root.put("done", true);
    root.put("total_duration", 123456789L);
    root.put("load_duration", 1234L);
    if (promptEvalCount != null) {
      root.put("prompt_eval_count", promptEvalCount);
    }
    root.put("prompt_eval_duration", 4567L);
    if (evalCount != null) {
      root.put("eval_count", evalCount);
    }
    root.put("eval_duration", 7890L);
    return ScriptedHttpServer.Response.json(root.toString());
  }

  static ScriptedHttpServer.Response error(int status, String message) {
    return ScriptedHttpServer.Response.json(status, JSON.createObjectNode().put("error", message).toString());
  }

  static ScriptedHttpServer.Response embed(List<double[]> vectors) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", "test-embed");
    ArrayNode all = root.putArray("embeddings");
    for (double[] v : vectors) {
      ArrayNode a = all.addArray();
      for (double d : v) {
        a.add(d);
      }
    }
    root.put("total_duration", 1000L);
    root.put("load_duration", 10L);
    root.put("prompt_eval_count", 9);
    return ScriptedHttpServer.Response.json(root.toString());
  }

  /** The chat messages of a recorded request body ({@code messages[].role/content}). */
  static List<ChatMessage> messages(JsonNode body) {
    List<ChatMessage> out = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      out.add(new ChatMessage(Role.parse(m.path("role").asText()), m.path("content").asText()));
    }
    return out;
  }
}
