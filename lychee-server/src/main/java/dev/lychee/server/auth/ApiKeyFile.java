package dev.lychee.server.auth;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads API keys from JSON, as a file ({@code --keys PATH} or {@code LYCHEE_API_KEYS_FILE}) or the
 * value of {@code LYCHEE_API_KEYS}. Only hashes are accepted, never secrets:
 *
 * <pre>{"keys": [{"id": "alice-agent", "sha256": "&lt;hex of SHA-256(secret)&gt;",
 *            "namespaces": ["alice", "team-*"], "right": "write", "default_namespace": "alice"}]}</pre>
 *
 * Error messages name the key id and field, never a hash.
 */
public final class ApiKeyFile {
  private static final Set<String> FIELDS = Set.of("id", "sha256", "namespaces", "right", "default_namespace");
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  private ApiKeyFile() {}

  /** Keys from a file. */
  public static ApiKeys read(Path file) {
    try {
      return parse(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read API key file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Keys from the environment: {@code LYCHEE_API_KEYS_FILE} or {@code LYCHEE_API_KEYS}; none if unset. */
  public static ApiKeys fromEnvironment(Map<String, String> env) {
    String file = env.getOrDefault("LYCHEE_API_KEYS_FILE", "").trim();
    if (!file.isEmpty()) {
      return read(Path.of(file));
    }
    String inline = env.getOrDefault("LYCHEE_API_KEYS", "").trim();
    return inline.isEmpty() ? ApiKeys.none() : parse(inline, "LYCHEE_API_KEYS");
  }

  /** Parses the JSON text; {@code source} names it in errors. */
  public static ApiKeys parse(String json, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(source + ": not valid JSON (line "
          + lineOf(e) + ")");
    }
    if (root == null || !root.path("keys").isArray()) {
      throw new IllegalArgumentException(source + ": expected an object with a \"keys\" array");
    }
    List<ApiKey> keys = new ArrayList<>();
    int n = 0;
    for (JsonNode k : root.get("keys")) {
      n++;
      String where = source + ": key #" + n;
      if (!k.isObject()) {
        throw new IllegalArgumentException(where + " is not an object");
      }
      for (Iterator<String> it = k.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!FIELDS.contains(f)) {
          throw new IllegalArgumentException(where + ": unknown field '" + f + "' (allowed: " + FIELDS
              + "; secrets are never accepted, store their SHA-256)");
        }
      }
      String id = text(k, "id", where);
      where = source + ": key '" + id + "'";
      String hex = text(k, "sha256", where);
      byte[] hash;
      try {
        hash = HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": sha256 must be 64 hex digits");
      }
      if (hash.length != 32) {
        throw new IllegalArgumentException(where + ": sha256 must be 64 hex digits");
      }
      if (!k.path("namespaces").isArray()) {
        throw new IllegalArgumentException(where + ": \"namespaces\" must be an array of names or prefixes ending in *");
      }
      List<NamespacePattern> patterns = new ArrayList<>();
      for (JsonNode p : k.get("namespaces")) {
        if (!p.isTextual()) {
          throw new IllegalArgumentException(where + ": every namespace must be a string");
        }
        patterns.add(new NamespacePattern(p.asText()));
      }
      Right right = Right.parse(text(k, "right", where));
      String dflt = k.hasNonNull("default_namespace") ? k.get("default_namespace").asText() : null;
      try {
        keys.add(new ApiKey(id, hash, patterns, right, dflt));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": " + e.getMessage());
      }
    }
    try {
      return ApiKeys.of(keys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage());
    }
  }

  private static String text(JsonNode k, String field, String where) {
    JsonNode v = k.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException(where + ": \"" + field + "\" must be a non-blank string");
    }
    return v.asText();
  }

  private static String lineOf(IOException e) {
    if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null) {
      return String.valueOf(j.getLocation().getLineNr());
    }
    return "?";
  }
}
