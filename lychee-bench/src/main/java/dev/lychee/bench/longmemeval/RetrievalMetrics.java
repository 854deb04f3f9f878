package dev.lychee.bench.longmemeval;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * LongMemEval's official retrieval metrics over a ranked list of ids (sessions or turns), as its
 * evaluation code computes them.
 *
 * <p>{@code recall_any@k}: 1 if any gold id is in the top k. {@code recall_all@k}: 1 if every gold
 * id is. {@code ndcg_any@k}: binary-relevance NDCG where DCG = {@code rel_1 + sum_{i>=2} rel_i /
 * log2(i)} (1-based positions; the first two positions are both undiscounted, as in the official
 * code) and the ideal ranking puts every gold id first.
 */
public final class RetrievalMetrics {
  private RetrievalMetrics() {}

  public static double recallAny(List<String> ranking, Collection<String> gold, int k) {
    Set<String> top = top(ranking, k);
    return gold.stream().anyMatch(top::contains) ? 1.0 : 0.0;
  }

  public static double recallAll(List<String> ranking, Collection<String> gold, int k) {
    Set<String> top = top(ranking, k);
    return top.containsAll(gold) ? 1.0 : 0.0;
  }

  public static double ndcgAny(List<String> ranking, Collection<String> gold, int k) {
    Set<String> goldSet = new HashSet<>(gold);
    double[] actual = new double[Math.min(k, ranking.size())];
    for (int i = 0; i < actual.length; i++) {
      actual[i] = goldSet.contains(ranking.get(i)) ? 1 : 0;
    }
    double[] ideal = new double[Math.min(k, goldSet.size())];
    java.util.Arrays.fill(ideal, 1);
    double idcg = dcg(ideal);
    return idcg == 0 ? 0.0 : dcg(actual) / idcg;
  }

  /** {@code rel[0] + sum_{i>=1} rel[i] / log2(i + 1)} over 0-based positions. */
  static double dcg(double[] rel) {
    if (rel.length == 0) {
      return 0;
    }
    double s = rel[0];
    for (int i = 1; i < rel.length; i++) {
      s += rel[i] / (Math.log(i + 1) / Math.log(2));
    }
    return s;
  }

  private static Set<String> top(List<String> ranking, int k) {
    return new HashSet<>(ranking.subList(0, Math.min(k, ranking.size())));
  }
}
