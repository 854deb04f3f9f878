package dev.lychee.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.core.llm.JsonExtraction;
import dev.lychee.core.llm.JsonExtractionException;
import java.util.Optional;

/** Finds the JSON object in a planner reply with the shared {@link JsonExtraction}. */
final class PlanJson {
  private PlanJson() {}

  static Optional<JsonNode> object(String reply) {
    try {
      JsonNode n = JsonExtraction.extract(reply);
      return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
    } catch (JsonExtractionException e) {
      return Optional.empty();
    }
  }
}
