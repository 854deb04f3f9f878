package dev.lychee.core.vector;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Vector arithmetic and argument checks shared by vector indexes. */
public final class Vectors {
  private Vectors() {}

  /**
   * The dot-product kernel of this JVM, chosen once (docs/defaults.md §3.5): SIMD when the JVM runs
   * with {@code --add-modules jdk.incubator.vector}, scalar otherwise; both give the same bits.
   */
  private static final DotKernel KERNEL = DotKernels.forThisJvm();

  /**
   * Dot product of {@code q} with the vector stored at {@code offset} in {@code data}: eight float
   * sums over the elements (as {@link DotKernel} lays them out), widened and added at the end.
   */
  public static double dot(float[] q, float[] data, int offset) {
    return KERNEL.dot(q, data, offset);
  }

  /**
   * The dot products of two queries {@code a} and {@code b} (of one length) with the vector stored
   * at {@code offset} in {@code data}, into {@code out[at]} and {@code out[at + 1]}: each bit for
   * bit what {@link #dot(float[], float[], int)} gives (the same lanes, summed in the same order),
   * but the stored vector is read once for both and the sums are independent, so the loop is not
   * held up waiting for one sum before the next.
   */
  public static void dot2(float[] a, float[] b, float[] data, int offset, double[] out, int at) {
    KERNEL.dot2(a, b, data, offset, out, at);
  }

  /** The name of the kernel this JVM uses, {@code simd} or {@code scalar}, for reports. */
  public static String kernel() {
    return KERNEL.name();
  }

  /** Dot product of two vectors of equal length. */
  public static double dot(float[] a, float[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("dimension mismatch: " + a.length + " vs " + b.length);
    }
    return dot(a, b, 0);
  }

  /**
   * {@code v} scaled in place to unit L2 norm, and returned; a zero vector is returned unchanged
   * (it has no direction to keep).
   */
  public static float[] unit(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (sum > 0) {
      float inv = (float) (1.0 / Math.sqrt(sum));
      for (int i = 0; i < v.length; i++) {
        v[i] *= inv;
      }
    }
    return v;
  }

  /**
   * Checks the arguments of a search: {@code k > 0} and every query a non-null, non-empty, finite
   * vector.
   */
  public static void checkQueries(List<float[]> queries, int k) {
    Objects.requireNonNull(queries, "queries");
    if (queries.isEmpty()) {
      checkK(k);
    }
    for (float[] q : queries) {
      checkQuery(q, k);
    }
  }

  /**
   * Checks a vector to be stored or searched with: a non-blank id, and a non-null, non-empty, finite
   * vector.
   *
   * @return the vector
   */
  public static float[] checkVector(String id, float[] v) {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) {
      throw new IllegalArgumentException("vector id must not be blank");
    }
    Objects.requireNonNull(v, () -> "vector of '" + id + "' is null");
    if (v.length == 0) {
      throw new IllegalArgumentException("vector of '" + id + "' is empty");
    }
    for (float x : v) {
      if (!Float.isFinite(x)) {
        throw new IllegalArgumentException("vector of '" + id + "' holds a non-finite value");
      }
    }
    return v;
  }

  /** Checks the namespace and kind a vector index call names: both non-blank. */
  public static void checkScope(String namespace, String kind) {
    nonBlank(namespace, "namespace");
    nonBlank(kind, "kind");
  }

  /**
   * Checks a batch to upsert: every entry as {@link #checkVector}, all of one dimension.
   *
   * @return that dimension, or -1 for an empty batch
   */
  public static int batchDimension(Map<String, float[]> vectors) {
    Objects.requireNonNull(vectors, "vectors");
    int dim = -1;
    for (Map.Entry<String, float[]> e : vectors.entrySet()) {
      float[] v = checkVector(e.getKey(), e.getValue());
      if (dim == -1) {
        dim = v.length;
      } else if (v.length != dim) {
        throw new IllegalArgumentException("vector '" + e.getKey() + "' has dimension " + v.length
            + " but the batch holds dimension " + dim);
      }
    }
    return dim;
  }

  /** Checks the arguments of a search: a valid query vector and {@code k > 0}. */
  private static void checkQuery(float[] query, int k) {
    Objects.requireNonNull(query, "query");
    checkK(k);
    checkVector("query", query);
  }

  private static void checkK(int k) {
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0, got " + k);
    }
  }

  private static void nonBlank(String v, String name) {
    Objects.requireNonNull(v, name);
    if (v.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }
}
