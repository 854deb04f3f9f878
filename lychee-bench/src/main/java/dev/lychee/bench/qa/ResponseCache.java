package dev.lychee.bench.qa;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.TokenUsage;
import dev.lychee.bench.harness.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * A directory of chat responses keyed by model and request, so that a re-run, or a run resumed
 * after an interruption, sends nothing it has sent before.
 *
 * <p>The key is the SHA-256 of the model id and the whole request (messages with their roles,
 * temperature, token cap, JSON mode), written as canonical JSON; each response is one small JSON
 * file (text, the usage the provider reported, the answering model) under {@code <dir>/<2 hex>/}.
 * Files are written atomically, so concurrent writers of one key leave one whole file. A file that
 * does not parse is treated as a miss and overwritten.
 */
public final class ResponseCache {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path dir;

  public ResponseCache(Path dir) {
    this.dir = Objects.requireNonNull(dir, "dir");
  }

  /** The cached response for this model and request, if any. */
  public Optional<ChatResult> get(String modelId, ChatRequest request) {
    Path file = file(key(modelId, request));
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      ObjectNode n = (ObjectNode) JSON.readTree(file.toFile());
      return Optional.of(new ChatResult(n.get("text").asText(),
          new TokenUsage(n.get("input_tokens").asLong(), n.get("output_tokens").asLong()),
          n.path("model").asText("")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Stores a response (replacing any earlier one for the same key). */
  public void put(String modelId, ChatRequest request, ChatResult result) {
    ObjectNode n = JSON.createObjectNode();
    n.put("text", result.text());
    n.put("input_tokens", result.usage().inputTokens());
    n.put("output_tokens", result.usage().outputTokens());
    n.put("model", result.model());
    try {
      AtomicFiles.write(file(key(modelId, request)), JSON.writeValueAsString(n));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the response cache in " + dir, e);
    }
  }

  /** The cache key: SHA-256 hex of the canonical JSON of model and request. */
  static String key(String modelId, ChatRequest request) {
    ObjectNode n = JSON.createObjectNode();
    n.put("model", modelId);
    n.put("temperature", request.temperature());
    n.put("max_tokens", request.maxTokens());
    n.put("json", request.jsonMode());
    ArrayNode messages = n.putArray("messages");
    for (ChatMessage m : request.messages()) {
      messages.addObject().put("role", m.role().name()).put("content", m.content());
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(JSON.writeValueAsString(n).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private Path file(String key) {
    return dir.resolve(key.substring(0, 2)).resolve(key + ".json");
  }
}
