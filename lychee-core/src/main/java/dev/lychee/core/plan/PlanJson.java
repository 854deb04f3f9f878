package dev.lychee.core.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * Finds the JSON object in an LLM reply: strips code fences and any prose around the outermost
 * braces. A minimal local helper; to be replaced by the shared {@code core.llm.JsonExtraction} once
 * that is available on main.
 */
final class PlanJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private PlanJson() {}

  static Optional<JsonNode> object(String reply) {
    if (reply == null) {
      return Optional.empty();
    }
    String s = reply.strip();
    if (s.startsWith("```")) {
      int nl = s.indexOf('\n');
      s = nl < 0 ? "" : s.substring(nl + 1);
      int fence = s.lastIndexOf("```");
      if (fence >= 0) {
        s = s.substring(0, fence);
      }
    }
    int open = s.indexOf('{');
    int close = s.lastIndexOf('}');
    if (open < 0 || close <= open) {
      return Optional.empty();
    }
    try {
      JsonNode n = MAPPER.readTree(s.substring(open, close + 1));
      return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }
}
