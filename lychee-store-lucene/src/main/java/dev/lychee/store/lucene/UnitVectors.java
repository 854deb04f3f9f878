package dev.lychee.store.lucene;

/**
 * Unit-length copies of vectors. Lucene's {@code DOT_PRODUCT} similarity is only a cosine for unit
 * vectors; embedders promise unit length, and rounding drift or a careless caller is corrected
 * here so that scores stay cosines.
 */
final class UnitVectors {
  private static final double TOLERANCE = 1e-4;

  private UnitVectors() {}

  /**
   * A unit-length copy of a stored vector.
   *
   * @throws IllegalArgumentException for a zero or non-finite vector, which has no direction
   */
  static float[] normalized(float[] v, String id) {
    double norm = norm(v);
    if (!Double.isFinite(norm) || norm == 0) {
      throw new IllegalArgumentException("vector of " + id + " is zero or not finite");
    }
    return scaled(v, norm);
  }

  /** A unit-length copy of a query vector; a zero query stays zero (every score is then 0). */
  static float[] normalizedOrZero(float[] v) {
    double norm = norm(v);
    if (!Double.isFinite(norm)) {
      throw new IllegalArgumentException("query vector is not finite");
    }
    return norm == 0 ? v.clone() : scaled(v, norm);
  }

  private static double norm(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    return Math.sqrt(sum);
  }

  private static float[] scaled(float[] v, double norm) {
    float[] out = v.clone();
    if (Math.abs(norm - 1) <= TOLERANCE) {
      return out;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = (float) (out[i] / norm);
    }
    return out;
  }
}
