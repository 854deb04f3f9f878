package dev.lychee.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.core.conformance.ScriptedHttpServer;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A local server speaking the OpenAI chat-completions and embeddings protocol: chat replies come
 * from a function of the request's messages, embeddings are deterministic bag-of-words vectors.
 * Every chat reply reports 11 prompt and 7 completion tokens.
 */
final class OpenAiStub implements AutoCloseable {
  static final int PROMPT_TOKENS = 11;
  static final int COMPLETION_TOKENS = 7;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ScriptedHttpServer server = ScriptedHttpServer.start();
  private final HashingEmbedder embedder = new HashingEmbedder(64);

  OpenAiStub(Function<List<String>, String> replies) {
    server.route(r -> switch (r.path()) {
      case "/v1/chat/completions" -> ScriptedHttpServer.Response.json(chat(replies.apply(contents(r.body()))));
      case "/v1/embeddings" -> ScriptedHttpServer.Response.json(embeddings(r.body()));
      default -> null;
    });
  }

  /** The base URL an OpenAI client takes ({@code .../v1}). */
  String baseUrl() {
    return server.baseUri() + "/v1";
  }

  ScriptedHttpServer server() {
    return server;
  }

  /** The message contents of every chat request, one string per request (messages joined). */
  List<String> chatPrompts() {
    List<String> out = new ArrayList<>();
    for (ScriptedHttpServer.Request r : server.requestsTo("/v1/chat/completions")) {
      out.add(String.join("\n", contents(r.body())));
    }
    return out;
  }

  static List<String> contents(String body) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : read(body).path("messages")) {
      JsonNode c = m.path("content");
      if (c.isTextual()) {
        out.add(c.asText());
      } else {
        c.forEach(part -> out.add(part.path("text").asText("")));
      }
    }
    return out;
  }

  private static String chat(String reply) {
    ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
        .put("created", 1).put("model", "gpt-stub");
    ObjectNode choice = root.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", reply);
    root.putObject("usage").put("prompt_tokens", PROMPT_TOKENS).put("completion_tokens", COMPLETION_TOKENS)
        .put("total_tokens", PROMPT_TOKENS + COMPLETION_TOKENS);
    return root.toString();
  }

  private String embeddings(String body) {
    JsonNode input = read(body).path("input");
    List<String> texts = new ArrayList<>();
    if (input.isTextual()) {
      texts.add(input.asText());
    } else {
      input.forEach(n -> texts.add(n.asText()));
    }
    ObjectNode root = JSON.createObjectNode().put("object", "list").put("model", "embed-stub");
    ArrayNode data = root.putArray("data");
    List<float[]> vectors = embedder.embedDocuments(texts);
    for (int i = 0; i < vectors.size(); i++) {
      ArrayNode v = data.addObject().put("object", "embedding").put("index", i).putArray("embedding");
      for (float x : vectors.get(i)) {
        v.add(x);
      }
    }
    root.putObject("usage").put("prompt_tokens", texts.size()).put("total_tokens", texts.size());
    return root.toString();
  }

  private static JsonNode read(String body) {
    try {
      return JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
