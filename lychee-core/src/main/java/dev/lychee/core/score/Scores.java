package dev.lychee.core.score;

/** Score arithmetic shared by the recall stages. */
public final class Scores {
  private Scores() {}

  /** Clamps to [0, 1]; NaN becomes 0. */
  public static double clamp(double x) {
    if (Double.isNaN(x)) {
      return 0;
    }
    return Math.max(0, Math.min(1, x));
  }

  /**
   * The retrieval score {@code r} of a cosine similarity between unit vectors: {@code 1 - d} on the
   * squared L2 distance {@code d = 2 - 2·cos}, that is {@code clamp(2·cos - 1)} (§3.5).
   */
  public static double retrieval(double cosine) {
    return clamp(2 * cosine - 1);
  }
}
