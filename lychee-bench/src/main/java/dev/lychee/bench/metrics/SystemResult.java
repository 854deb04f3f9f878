package dev.lychee.bench.metrics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One system's scores over a run: overall and per category.
 *
 * @param system the system's name
 * @param overall means over every question
 * @param byCategory means per category, keyed by category number (only categories that occur)
 */
public record SystemResult(String system, MetricSummary overall, Map<Integer, MetricSummary> byCategory) {
  public SystemResult {
    byCategory = new TreeMap<>(byCategory);
  }

  /** Aggregates per-question scores. */
  public static SystemResult of(String system, List<QuestionScore> scores) {
    Map<Integer, List<QuestionScore>> groups = new TreeMap<>();
    for (QuestionScore s : scores) {
      groups.computeIfAbsent(s.category(), c -> new java.util.ArrayList<>()).add(s);
    }
    Map<Integer, MetricSummary> byCategory = new TreeMap<>();
    groups.forEach((c, g) -> byCategory.put(c, summarise(g)));
    return new SystemResult(system, summarise(scores), byCategory);
  }

  static MetricSummary summarise(List<QuestionScore> scores) {
    int n = scores.size();
    return new MetricSummary(n, mean(scores, QuestionScore::recall), mean(scores, QuestionScore::hit),
        mean(scores, QuestionScore::tokens), mean(scores, QuestionScore::recallTokens),
        mean(scores, QuestionScore::contained), mean(scores, QuestionScore::budgetRecall),
        mean(scores, QuestionScore::budgetContained), mean(scores, QuestionScore::budgetTokens),
        scores.stream().mapToInt(QuestionScore::overBudget).sum());
  }

  /** Per key, the mean over the questions that have the key. */
  private static Map<Integer, Double> mean(List<QuestionScore> scores,
      java.util.function.Function<QuestionScore, Map<Integer, Double>> metric) {
    Map<Integer, Double> sum = new TreeMap<>();
    Map<Integer, Integer> count = new TreeMap<>();
    for (QuestionScore s : scores) {
      metric.apply(s).forEach((k, v) -> {
        sum.merge(k, v, Double::sum);
        count.merge(k, 1, Integer::sum);
      });
    }
    sum.replaceAll((k, v) -> v / count.get(k));
    return sum;
  }
}
