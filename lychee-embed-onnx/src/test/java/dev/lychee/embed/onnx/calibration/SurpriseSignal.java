package dev.lychee.embed.onnx.calibration;

import java.util.List;

/**
 * The segmenter's raw surprise of a new exchange against an open segment (docs/defaults.md §1.5), restated here so that the calibration does not depend on the segmenter's code: {@code s =
 * max(0, 1 - max(e.c, e.t))} with c the normalised mean of all open vectors and t the normalised
 * mean of the last two.
 */
final class SurpriseSignal {
  private SurpriseSignal() {}

  /**
   * @param open the open segment's unit vectors, oldest first, at least one
   * @param e the new unit vector
   */
  static double surprise(List<float[]> open, float[] e) {
    if (open.isEmpty()) {
      throw new IllegalArgumentException("open segment is empty");
    }
    double[] c = normalisedMean(open);
    double[] t = normalisedMean(open.subList(Math.max(0, open.size() - 2), open.size()));
    return Math.max(0, 1 - Math.max(dot(e, c), dot(e, t)));
  }

  static double[] normalisedMean(List<float[]> vectors) {
    int d = vectors.get(0).length;
    double[] m = new double[d];
    for (float[] v : vectors) {
      for (int i = 0; i < d; i++) {
        m[i] += v[i];
      }
    }
    double n = 0;
    for (double x : m) {
      n += x * x;
    }
    n = Math.sqrt(n);
    if (n == 0) {
      return m; // opposite vectors cancel out; the dot product with zero is 0 (full surprise)
    }
    for (int i = 0; i < d; i++) {
      m[i] /= n;
    }
    return m;
  }

  static double dot(float[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
