package dev.lychee.core.segment;

/**
 * The piecewise length pressure L(T) over the open segment's token count T (docs/defaults.md §1.5). Four knots split the axis into five pieces:
 *
 * <pre>
 * T &lt; k1            : floor
 * k1 ≤ T &lt; k2       : rampStart + (rampEnd − rampStart)·(T − k1)/(k2 − k1)
 * k2 ≤ T &lt; k3       : growStart + (growEnd − growStart)·(T − k2)/(k3 − k2)
 * k3 ≤ T &lt; k4       : pushStart + (pushEnd − pushStart)·(T − k3)/(k4 − k3)
 * T ≥ k4            : ceiling
 * </pre>
 *
 * <p>The knots are independent of the configured min/target/max tokens on purpose: the authors
 * hard-code 700/1000/1500/2000 and the test vectors rely on it. There are jumps at k1 and k2.
 */
public record LengthCurve(
    int k1,
    int k2,
    int k3,
    int k4,
    double floor,
    double rampStart,
    double rampEnd,
    double growStart,
    double growEnd,
    double pushStart,
    double pushEnd,
    double ceiling) {

  /** The authors' curve: knots 700/1000/1500/2000, values −1.30, −0.80→0, 0.45→1.90, 1.90→2.80, 3.00. */
  public static final LengthCurve DEFAULTS =
      new LengthCurve(700, 1000, 1500, 2000, -1.30, -0.80, 0.0, 0.45, 1.90, 1.90, 2.80, 3.00);

  public LengthCurve {
    if (!(0 < k1 && k1 < k2 && k2 < k3 && k3 < k4)) {
      throw new IllegalArgumentException(
          "length knots must satisfy 0 < k1 < k2 < k3 < k4: " + k1 + ", " + k2 + ", " + k3 + ", " + k4);
    }
    for (double v : new double[] {floor, rampStart, rampEnd, growStart, growEnd, pushStart, pushEnd, ceiling}) {
      BoundaryWeights.finite(v, "length curve value");
    }
  }

  /** L(T). */
  public double at(int tokens) {
    if (tokens < k1) {
      return floor;
    }
    if (tokens < k2) {
      return lerp(rampStart, rampEnd, tokens - k1, k2 - k1);
    }
    if (tokens < k3) {
      return lerp(growStart, growEnd, tokens - k2, k3 - k2);
    }
    if (tokens < k4) {
      return lerp(pushStart, pushEnd, tokens - k3, k4 - k3);
    }
    return ceiling;
  }

  private static double lerp(double from, double to, int done, int span) {
    return from + (to - from) * done / span;
  }
}
