package dev.lychee.store.lucene;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * An immutable in-memory copy of one logical index's vectors, scanned exactly with the same
 * arithmetic as {@link ExactVectorScan} (double-precision dot products, best first, ties by id), so
 * a search answers the same whether it runs on the copy or on the index files.
 */
final class LoadedVectors {
  private final String[] ids;
  private final float[] data;
  private final int dim;

  LoadedVectors(Map<String, float[]> vectors, int dim) {
    this.dim = dim;
    this.ids = new String[vectors.size()];
    this.data = new float[vectors.size() * dim];
    int i = 0;
    for (Map.Entry<String, float[]> e : vectors.entrySet()) {
      ids[i] = e.getKey();
      System.arraycopy(e.getValue(), 0, data, i * dim, dim);
      i++;
    }
  }

  int size() {
    return ids.length;
  }

  int dimension() {
    return dim;
  }

  /** Approximate heap bytes, for the cache's weigher. */
  long bytes() {
    return (long) ids.length * (dim * 4L + 96L) + 64L;
  }

  /** The {@code k} best vectors whose id passes {@code filter} (nullable). */
  List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    PriorityQueue<ScoredId> best = new PriorityQueue<>(Math.min(k, 1024) + 1, ExactVectorScan.BEST_FIRST.reversed());
    for (int i = 0; i < ids.length; i++) {
      if (filter != null && !filter.test(ids[i])) {
        continue;
      }
      double dot = 0;
      int off = i * dim;
      for (int j = 0; j < dim; j++) {
        dot += (double) data[off + j] * query[j];
      }
      ScoredId hit = new ScoredId(ids[i], dot);
      if (best.size() < k) {
        best.add(hit);
      } else if (ExactVectorScan.BEST_FIRST.compare(hit, best.peek()) < 0) {
        best.poll();
        best.add(hit);
      }
    }
    List<ScoredId> out = new ArrayList<>(best);
    out.sort(ExactVectorScan.BEST_FIRST);
    return out;
  }
}
