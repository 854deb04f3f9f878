package dev.lychee.bench.metrics;

import java.util.Map;
import java.util.TreeMap;

/**
 * The metrics of one question for one system.
 *
 * @param category LoCoMo category (1-4), or 0 when the dataset has none
 * @param recall recall@k by k
 * @param hit hit@k (0 or 1) by k
 * @param tokens evidence tokens of the first k items, by k
 * @param recallTokens recall@B by token budget B, over the prefix of the k list that fits B
 * @param contained answer containment (0 or 1) of that prefix, by B; empty when no gold answer
 *     was given
 * @param budgetRecall recall@B over the evidence selected for budget B (budget mode); empty for
 *     systems without a budget of their own
 * @param budgetContained answer containment of that evidence, by B
 * @param budgetTokens serialised tokens of that evidence, by B
 * @param overBudget how many budgets the system's evidence exceeded (must be 0)
 */
public record QuestionScore(
    int category,
    Map<Integer, Double> recall,
    Map<Integer, Double> hit,
    Map<Integer, Double> tokens,
    Map<Integer, Double> recallTokens,
    Map<Integer, Double> contained,
    Map<Integer, Double> budgetRecall,
    Map<Integer, Double> budgetContained,
    Map<Integer, Double> budgetTokens,
    int overBudget) {
  public QuestionScore {
    recall = new TreeMap<>(recall);
    hit = new TreeMap<>(hit);
    tokens = new TreeMap<>(tokens);
    recallTokens = new TreeMap<>(recallTokens);
    contained = new TreeMap<>(contained);
    budgetRecall = new TreeMap<>(budgetRecall);
    budgetContained = new TreeMap<>(budgetContained);
    budgetTokens = new TreeMap<>(budgetTokens);
  }

  /** A prefix-mode score without containment or budget mode. */
  public QuestionScore(int category, Map<Integer, Double> recall, Map<Integer, Double> hit,
      Map<Integer, Double> tokens, Map<Integer, Double> recallTokens) {
    this(category, recall, hit, tokens, recallTokens, Map.of(), Map.of(), Map.of(), Map.of(), 0);
  }
}
