package dev.lychee.bench.metrics;

import java.util.Map;
import java.util.TreeMap;

/**
 * Means of {@link QuestionScore}s over a group of questions.
 *
 * @param questions how many questions the means are over
 */
public record MetricSummary(
    int questions,
    Map<Integer, Double> recall,
    Map<Integer, Double> hit,
    Map<Integer, Double> tokens,
    Map<Integer, Double> recallTokens) {
  public MetricSummary {
    recall = new TreeMap<>(recall);
    hit = new TreeMap<>(hit);
    tokens = new TreeMap<>(tokens);
    recallTokens = new TreeMap<>(recallTokens);
  }
}
