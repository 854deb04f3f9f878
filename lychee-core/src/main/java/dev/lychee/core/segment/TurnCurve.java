package dev.lychee.core.segment;

/**
 * The turn-count signal H(n) over the exchanges n already in the open segment
 * (docs/defaults.md §1.5): {@code one} for n ≤ 1, {@code two} for 2, {@code three} for 3, and
 * {@code min(max, base + step·(n − 4))} from 4 on (with the defaults it reaches 1 at n = 9).
 */
public record TurnCurve(double one, double two, double three, double base, double step, double max) {

  /** The authors' values: −0.85, −0.15, +0.15, then 0.30 + 0.15·(n−4) capped at 1. */
  public static final TurnCurve DEFAULTS = new TurnCurve(-0.85, -0.15, 0.15, 0.30, 0.15, 1.0);

  public TurnCurve {
    for (double v : new double[] {one, two, three, base, step, max}) {
      BoundaryWeights.finite(v, "turn curve value");
    }
  }

  /** H(n). */
  public double at(int exchanges) {
    if (exchanges <= 1) {
      return one;
    }
    if (exchanges == 2) {
      return two;
    }
    if (exchanges == 3) {
      return three;
    }
    return Math.min(max, base + step * (exchanges - 4));
  }
}
