package dev.lychee.bench.locomo;

import java.util.List;
import java.util.Objects;

/**
 * One evaluated question (categories 1-4 with at least one gold turn after cleaning).
 *
 * @param index the position in the conversation's {@code qa} list
 * @param question the question text
 * @param answer the reference answer as a string (LoCoMo stores a few as JSON ints)
 * @param category 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop
 * @param gold the cleaned evidence turns, never empty
 */
public record LocomoQuestion(int index, String question, String answer, int category, List<DiaId> gold) {
  public LocomoQuestion {
    Objects.requireNonNull(question, "question");
    answer = answer == null ? "" : answer;
    gold = List.copyOf(gold);
    if (gold.isEmpty()) {
      throw new IllegalArgumentException("a question needs at least one gold turn");
    }
    if (category < 1 || category > 4) {
      throw new IllegalArgumentException("only categories 1-4 are evaluated: " + category);
    }
  }
}
