package dev.lychee.core.segment;

import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Measures how surprised the segmenter's signals are on an embedder's vectors, to calibrate that
 * embedder's {@link EmbeddingProfile}. Pure: give it the unit exchange vectors of several
 * sessions (each in order) and it returns the distribution of the surprise s and of the cohesion
 * drop Δ of every exchange against the open segment that precedes it.
 *
 * <p>The open segment is simulated without the segmenter (whose cuts depend on the calibration
 * being measured): it is the previous {@code window} exchanges of the same session, fewer at the
 * session start. The default window of 6 exchanges matches the segment size the paper reports on
 * LoCoMo (5.8 turns per segment), so the statistics describe the segments the detector sees.
 *
 * <p>How the numbers become a profile ({@link Calibration#profile()}): the absolute surprise is
 * meant to be a standard score, so its centre is the median s and its scale the robust standard
 * deviation 1.4826·MAD of s. {@link Calibration#cohesionScale(double, double)} carries the
 * cohesion-drop unit over from a reference model in the same ratio.
 */
public final class SurpriseCalibrator {

  /** The default simulated open-segment length, in exchanges. */
  public static final int DEFAULT_WINDOW = 6;

  private final int window;
  private final int tailSize;

  /** A calibrator with the default window and the default tail of 2. */
  public SurpriseCalibrator() {
    this(DEFAULT_WINDOW, BoundaryWeights.DEFAULTS.tailSize());
  }

  public SurpriseCalibrator(int window, int tailSize) {
    if (window < 1 || tailSize < 1) {
      throw new IllegalArgumentException("window and tailSize must be >= 1: " + window + ", " + tailSize);
    }
    this.window = window;
    this.tailSize = tailSize;
  }

  /**
   * Measures the sessions' surprise and cohesion drop.
   *
   * @param sessions per session, its unit exchange vectors in order
   * @throws IllegalArgumentException if no session has two exchanges
   */
  public Calibration measure(List<List<float[]>> sessions) {
    Objects.requireNonNull(sessions, "sessions");
    List<Double> surprises = new ArrayList<>();
    List<Double> drops = new ArrayList<>();
    for (List<float[]> session : sessions) {
      for (int i = 1; i < session.size(); i++) {
        List<float[]> open = session.subList(Math.max(0, i - window), i);
        float[] e = session.get(i);
        surprises.add(BoundarySignals.surprise(open, e, tailSize));
        drops.add(BoundarySignals.cohesionDrop(open, e));
      }
    }
    if (surprises.isEmpty()) {
      throw new IllegalArgumentException("calibration needs at least one session with two exchanges");
    }
    return new Calibration(Stats.of(surprises), Stats.of(drops));
  }

  /**
   * Summary of one distribution.
   *
   * @param count values measured
   * @param median the median (mean of the middle two for an even count)
   * @param mad the median absolute deviation from the median
   * @param p10 the 10th percentile (linear interpolation between order statistics)
   * @param p90 the 90th percentile
   * @param mean the arithmetic mean
   */
  public record Stats(int count, double median, double mad, double p10, double p90, double mean) {

    static Stats of(List<Double> values) {
      double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(v);
      double median = BoundarySignals.median(v);
      return new Stats(v.length, median, BoundarySignals.mad(v, median), percentile(v, 0.10),
          percentile(v, 0.90), Arrays.stream(v).average().orElse(Double.NaN));
    }

    /** Linear interpolation on sorted values at rank q·(n−1). */
    static double percentile(double[] sorted, double q) {
      double rank = q * (sorted.length - 1);
      int lo = (int) Math.floor(rank);
      int hi = Math.min(sorted.length - 1, lo + 1);
      return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
    }

    /** The robust standard deviation, 1.4826·MAD. */
    public double robustSigma() {
      return 1.4826 * mad;
    }
  }

  /**
   * The measured distributions.
   *
   * @param surprise of s
   * @param drop of the cohesion drop Δ
   */
  public record Calibration(Stats surprise, Stats drop) {

    /** centre = median s, scale = 1.4826·MAD of s. */
    public EmbeddingProfile profile() {
      return new EmbeddingProfile(surprise.median(), surprise.robustSigma());
    }

    /**
     * The cohesion-drop unit for this embedder, carried over from a reference model whose
     * surprise scale is {@code referenceSurpriseScale} and whose cohesion unit is {@code
     * referenceCohesionScale} (0.14 and 0.06 for text-embedding-3-small): both are cosine
     * differences, so they shrink or grow by the same ratio between models.
     */
    public double cohesionScale(double referenceSurpriseScale, double referenceCohesionScale) {
      return referenceCohesionScale * surprise.robustSigma() / referenceSurpriseScale;
    }
  }
}
