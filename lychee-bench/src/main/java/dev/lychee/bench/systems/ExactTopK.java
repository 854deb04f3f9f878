package dev.lychee.bench.systems;

import java.util.PriorityQueue;

/**
 * Exact nearest neighbours by dot product (cosine for unit vectors) over an in-memory matrix,
 * with a bounded heap so that a query costs O(n log k).
 */
public final class ExactTopK {
  private ExactTopK() {}

  /** Indices of the {@code k} rows with the highest dot product with {@code q}, best first; ties by row. */
  public static int[] topK(float[][] rows, float[] q, int k) {
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0");
    }
    // Heap head = the worst kept row: lowest score, then highest index.
    PriorityQueue<long[]> heap = new PriorityQueue<>(k + 1, (a, b) -> {
      int c = Double.compare(Double.longBitsToDouble(a[0]), Double.longBitsToDouble(b[0]));
      return c != 0 ? c : Long.compare(b[1], a[1]);
    });
    for (int i = 0; i < rows.length; i++) {
      double s = dot(rows[i], q);
      if (heap.size() < k) {
        heap.add(new long[] {Double.doubleToLongBits(s), i});
      } else {
        long[] worst = heap.peek();
        double ws = Double.longBitsToDouble(worst[0]);
        if (s > ws) {
          heap.poll();
          heap.add(new long[] {Double.doubleToLongBits(s), i});
        }
      }
    }
    int[] out = new int[heap.size()];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = (int) heap.poll()[1];
    }
    return out;
  }

  static double dot(float[] a, float[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("dimension mismatch: " + a.length + " vs " + b.length);
    }
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
