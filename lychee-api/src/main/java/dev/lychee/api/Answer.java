package dev.lychee.api;

import java.util.List;
import java.util.Objects;

/**
 * An answer with the evidence it was written from.
 *
 * @param text the answer text
 * @param evidence the evidence the answerer was given (and, for extractive answerers, the item the
 *     answer was taken from first)
 * @param plan the recall plan
 * @param usage LLM tokens of the query side: planning plus answer generation
 */
public record Answer(String text, List<Evidence> evidence, RecallPlan plan, TokenUsage usage) {
  public Answer {
    Objects.requireNonNull(text, "text");
    evidence = List.copyOf(evidence);
    usage = usage == null ? TokenUsage.ZERO : usage;
  }
}
