package dev.lychee.bench.metrics;

import java.util.Map;
import java.util.TreeMap;

/**
 * Means of {@link QuestionScore}s over a group of questions (see there for each map). Budget-mode
 * and containment maps are empty when no question of the group had them.
 *
 * @param questions how many questions the means are over
 * @param overBudget how many (question, budget) pairs exceeded their budget in budget mode
 */
public record MetricSummary(
    int questions,
    Map<Integer, Double> recall,
    Map<Integer, Double> hit,
    Map<Integer, Double> tokens,
    Map<Integer, Double> recallTokens,
    Map<Integer, Double> contained,
    Map<Integer, Double> budgetRecall,
    Map<Integer, Double> budgetContained,
    Map<Integer, Double> budgetTokens,
    int overBudget) {
  public MetricSummary {
    recall = new TreeMap<>(recall);
    hit = new TreeMap<>(hit);
    tokens = new TreeMap<>(tokens);
    recallTokens = new TreeMap<>(recallTokens);
    contained = new TreeMap<>(contained);
    budgetRecall = new TreeMap<>(budgetRecall);
    budgetContained = new TreeMap<>(budgetContained);
    budgetTokens = new TreeMap<>(budgetTokens);
  }
}
