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
    Map<Integer, Double> recall = new TreeMap<>();
    Map<Integer, Double> hit = new TreeMap<>();
    Map<Integer, Double> tokens = new TreeMap<>();
    Map<Integer, Double> recallTokens = new TreeMap<>();
    for (QuestionScore s : scores) {
      s.recall().forEach((k, v) -> recall.merge(k, v, Double::sum));
      s.hit().forEach((k, v) -> hit.merge(k, v, Double::sum));
      s.tokens().forEach((k, v) -> tokens.merge(k, v, Double::sum));
      s.recallTokens().forEach((k, v) -> recallTokens.merge(k, v, Double::sum));
    }
    int n = scores.size();
    if (n > 0) {
      recall.replaceAll((k, v) -> v / n);
      hit.replaceAll((k, v) -> v / n);
      tokens.replaceAll((k, v) -> v / n);
      recallTokens.replaceAll((k, v) -> v / n);
    }
    return new MetricSummary(n, recall, hit, tokens, recallTokens);
  }
}
