package dev.lychee.core.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the JSON value in the text a language model returned.
 *
 * <p>Models wrap JSON in Markdown code fences, put a sentence before or after it, or stop half-way
 * through. This class tries, in order: the whole text; the body of the first code fence (an
 * unclosed fence runs to the end of the text); then every balanced {@code {...}} or {@code [...]}
 * span, scanning from the left, skipping brackets inside JSON strings. The first candidate that
 * parses as an object or array wins. The scan stops at the first bracket that never closes, so a
 * nested object of a truncated answer is never mistaken for the answer. Parsing is mildly lenient (trailing commas, comments and raw
 * control characters inside strings are accepted) because those slips carry no ambiguity.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonExtraction {

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
      .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
      .build();

  private static final Pattern FENCE = Pattern.compile("```[A-Za-z0-9_-]*[ \\t]*\\R?(.*?)(?:```|\\z)",
      Pattern.DOTALL);

  /** How many opening brackets the scan tries before giving up (guards against pathological text). */
  private static final int MAX_CANDIDATES = 64;

  private JsonExtraction() {}

  /** The shared, lenient mapper used for parsing; also handy to build nodes in tests. */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /**
   * The JSON object or array contained in {@code text}.
   *
   * @throws JsonExtractionException when the text is empty, holds no JSON value, or only a
   *     truncated or malformed one
   */
  public static JsonNode extract(String text) {
    if (text == null || text.isBlank()) {
      throw new JsonExtractionException("the model returned no text");
    }
    String body = text.strip();
    if (body.startsWith("\uFEFF")) {
      body = body.substring(1);
    }
    JsonNode whole = tryParse(body);
    if (whole != null) {
      return whole;
    }
    Matcher fence = FENCE.matcher(body);
    if (fence.find()) {
      JsonNode fenced = tryParse(fence.group(1).strip());
      if (fenced != null) {
        return fenced;
      }
    }
    boolean sawOpening = false;
    boolean sawUnbalanced = false;
    int tried = 0;
    for (int i = 0; i < body.length() && tried < MAX_CANDIDATES; i++) {
      char c = body.charAt(i);
      if (c != '{' && c != '[') {
        continue;
      }
      sawOpening = true;
      tried++;
      int end = matchingClose(body, i);
      if (end < 0) {
        // Everything after an unclosed bracket lies inside it: an inner object of a truncated answer
        // must not pass for the answer.
        sawUnbalanced = true;
        break;
      }
      JsonNode node = tryParse(body.substring(i, end + 1));
      if (node != null) {
        return node;
      }
    }
    if (!sawOpening) {
      throw new JsonExtractionException("no JSON object or array in the model output: " + quote(body));
    }
    if (sawUnbalanced) {
      throw new JsonExtractionException(
          "the JSON in the model output is truncated (unbalanced brackets): " + quote(body));
    }
    throw new JsonExtractionException("the model output holds no valid JSON: " + firstError(body));
  }

  /**
   * The elements a field holds when a list was expected: the array's elements, a lone object as a
   * one-element list (models often drop the brackets around a single item), nothing for a missing
   * or null field or a scalar.
   */
  public static List<JsonNode> elements(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node == null || node.isNull() || node.isMissingNode()) {
      return out;
    }
    if (node.isArray()) {
      node.forEach(out::add);
    } else if (node.isObject()) {
      out.add(node);
    }
    return out;
  }

  /**
   * A field's text: strings as they are, numbers and booleans as written, null or missing as "",
   * arrays of scalars joined with "; " (a model sometimes lists two dates where one was asked).
   */
  public static String text(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return "";
    }
    if (node.isValueNode()) {
      return node.asText("");
    }
    if (node.isArray()) {
      List<String> parts = new ArrayList<>();
      node.forEach(n -> {
        String s = text(n);
        if (!s.isBlank()) {
          parts.add(s.strip());
        }
      });
      return String.join("; ", parts);
    }
    return node.toString();
  }

  private static JsonNode tryParse(String candidate) {
    if (candidate.isEmpty()) {
      return null;
    }
    char first = candidate.charAt(0);
    if (first != '{' && first != '[') {
      return null;
    }
    try {
      JsonNode node = MAPPER.readTree(candidate);
      return node != null && (node.isObject() || node.isArray()) ? node : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  /** Index of the bracket closing the one at {@code open}, or -1 when the text ends first. */
  private static int matchingClose(String s, int open) {
    int depth = 0;
    boolean inString = false;
    boolean escaped = false;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> inString = true;
        case '{', '[' -> depth++;
        case '}', ']' -> {
          depth--;
          if (depth == 0) {
            return i;
          }
        }
        default -> { }
      }
    }
    return -1;
  }

  private static String firstError(String body) {
    int start = Math.max(0, Math.min(indexOfOpening(body), body.length()));
    try {
      MAPPER.readTree(body.substring(start));
      return quote(body);
    } catch (JsonProcessingException e) {
      return e.getOriginalMessage() + " in " + quote(body);
    }
  }

  private static int indexOfOpening(String s) {
    int a = s.indexOf('{');
    int b = s.indexOf('[');
    if (a < 0) {
      return b < 0 ? 0 : b;
    }
    return b < 0 ? a : Math.min(a, b);
  }

  private static String quote(String s) {
    String oneLine = s.replaceAll("\\s+", " ");
    return "\"" + (oneLine.length() > 160 ? oneLine.substring(0, 160) + "..." : oneLine) + "\"";
  }
}
