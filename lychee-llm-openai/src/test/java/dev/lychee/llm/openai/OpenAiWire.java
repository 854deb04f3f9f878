package dev.lychee.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.Role;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.util.ArrayList;
import java.util.List;

/** Builds response bodies in the OpenAI wire format for the scripted server. */
final class OpenAiWire {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OpenAiWire() {}

  static ScriptedHttpServer.Response completion(String text, Integer promptTokens, Integer completionTokens) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-test");
    root.put("object", "chat.completion");
    root.put("created", 1_700_000_000L);
    root.put("model", "test-model");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", text);
    choice.put("finish_reason", "stop");
    if (promptTokens != null) {
      root.putObject("usage")
          .put("prompt_tokens", promptTokens)
          .put("completion_tokens", completionTokens)
          .put("total_tokens", promptTokens + completionTokens);
    }
    return ScriptedHttpServer.Response.json(root.toString());
  }

  static ScriptedHttpServer.Response error(int status, String message) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode err = root.putObject("error");
    err.put("message", message);
    err.put("type", status == 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error");
    err.putNull("param");
    err.putNull("code");
    return ScriptedHttpServer.Response.json(status, root.toString());
  }

  /** An embeddings response; {@code order} gives the index of each item as sent. */
  static ScriptedHttpServer.Response embeddings(List<float[]> vectors, List<Integer> order) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list");
    ArrayNode data = root.putArray("data");
    for (int i : order) {
      ObjectNode item = data.addObject();
      item.put("object", "embedding");
      item.put("index", i);
      ArrayNode values = item.putArray("embedding");
      for (float f : vectors.get(i)) {
        values.add(f);
      }
    }
    root.put("model", "test-embedding");
    root.putObject("usage").put("prompt_tokens", 7).put("total_tokens", 7);
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
