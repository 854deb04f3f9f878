package dev.lychee.api;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The result of recalling evidence for a question.
 *
 * @param question the question
 * @param plan the plan that was executed
 * @param evidence the selected evidence, in final order, at most {@code question.k()} items
 * @param elapsedNanos wall time of the whole recall, planning included
 */
public record Recall(Question question, RecallPlan plan, List<Evidence> evidence, long elapsedNanos) {
  public Recall {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(plan, "plan");
    evidence = List.copyOf(evidence);
  }

  /** The union of the raw turns the first {@code k} evidence items cite, in evidence order. */
  public Set<TurnRef> coveredTurns(int k) {
    Set<TurnRef> covered = new LinkedHashSet<>();
    evidence.stream().limit(k).forEach(e -> covered.addAll(e.turns()));
    return covered;
  }
}
