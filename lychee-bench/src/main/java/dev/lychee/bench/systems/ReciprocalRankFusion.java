package dev.lychee.bench.systems;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal rank fusion: {@code score(d) = sum over lists of 1 / (k + rank(d))} with 1-based
 * ranks. Ties keep the order in which items were first seen (lists in argument order).
 */
public final class ReciprocalRankFusion {
  /** The usual constant, also the baseline's. */
  public static final int DEFAULT_K = 60;

  private final int k;

  public ReciprocalRankFusion(int k) {
    if (k < 0) {
      throw new IllegalArgumentException("k must be >= 0");
    }
    this.k = k;
  }

  /** Fuses rankings of keys (each without duplicates); returns every key, best first. */
  public <T> List<T> fuse(List<List<T>> rankings) {
    Map<T, Double> scores = new LinkedHashMap<>();
    for (List<T> ranking : rankings) {
      for (int r = 0; r < ranking.size(); r++) {
        scores.merge(ranking.get(r), 1.0 / (k + r + 1), Double::sum);
      }
    }
    List<Map.Entry<T, Double>> entries = new ArrayList<>(scores.entrySet());
    // List.sort is stable, so equal scores stay in first-seen order.
    entries.sort(Map.Entry.<T, Double>comparingByValue(Comparator.reverseOrder()));
    return entries.stream().map(Map.Entry::getKey).toList();
  }
}
