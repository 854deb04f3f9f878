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
 * @param recallTokens recall@B by token budget B
 */
public record QuestionScore(
    int category,
    Map<Integer, Double> recall,
    Map<Integer, Double> hit,
    Map<Integer, Double> tokens,
    Map<Integer, Double> recallTokens) {
  public QuestionScore {
    recall = new TreeMap<>(recall);
    hit = new TreeMap<>(hit);
    tokens = new TreeMap<>(tokens);
    recallTokens = new TreeMap<>(recallTokens);
  }
}
