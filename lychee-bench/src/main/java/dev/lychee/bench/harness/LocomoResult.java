package dev.lychee.bench.harness;

import dev.lychee.bench.metrics.SystemResult;
import java.util.List;

/**
 * The outcome of one LoCoMo evidence-recall run.
 *
 * @param questions evaluated questions (categories 1-4 with at least one gold turn)
 * @param skipped category 1-4 questions left out because no gold turn survived cleaning
 * @param ks the k values
 * @param budgets the token budgets
 * @param systems one result per system, in the order they were asked for
 */
public record LocomoResult(int questions, int skipped, List<Integer> ks, List<Integer> budgets, List<SystemResult> systems) {
  public LocomoResult {
    ks = List.copyOf(ks);
    budgets = List.copyOf(budgets);
    systems = List.copyOf(systems);
  }
}
