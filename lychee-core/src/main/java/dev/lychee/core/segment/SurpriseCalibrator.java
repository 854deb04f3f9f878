package dev.lychee.core.segment;

import dev.lychee.api.Exchange;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Calibrates an embedder's {@link EmbeddingProfile} from the surprise it shows on conversational
 * text. Pure: it reads vectors (and, for the fit, exchanges) and returns numbers.
 *
 * <p><b>The model.</b> The paper's constants (centre 0.20, scale 0.14, cohesion unit 0.06) are in
 * the cosine scale of text-embedding-3-small. Other models compress or stretch cosine differences,
 * so we map surprise between models linearly through zero, {@code s_model = β·s_reference}: an
 * exchange identical to its segment has no surprise in any model, and a uniform change of cosine
 * scale multiplies every cosine difference by the same β. The profile is then {@code (0.20·β,
 * 0.14·β)}, and the cohesion unit follows through {@link BoundaryWeights#cohesionUnit}. One number,
 * β, remains to be measured.
 *
 * <p><b>Estimating β</b> ({@link #fit}). The paper's scale 0.14 is one unit of surprise, so we ask
 * that the robust spread (1.4826·MAD) of the surprise values the segmenter actually meets be one
 * scale unit: {@code 1.4826·MAD(s | β) = 0.14·β}. The left side depends on β through the segments
 * the segmenter forms, so β is found by bisection on {@code 1.4826·MAD(s | β)/0.14 − β}.
 * Nothing in it looks at segment counts or at any target length.
 *
 * <p><b>Measured.</b> BGE-small-en-v1.5-q (document side) on the LoCoMo dev file, each turn one
 * exchange with the segmenter's text ({@code "user: <speaker>: <text>"}), default configuration:
 * β = 0.3838, so profile (0.0768, 0.0537) and cohesion unit 0.0230; the surprise the segmenter meets
 * there has median 0.144 and 1.4826·MAD 0.0537. The five conversations fitted one by one give β
 * between 0.356 and 0.394. With that profile the semantic segmenter averages 6.45 turns per segment
 * on the file (5.3 to 7.6 per conversation). Standardising profiles (centre = median s, scale =
 * robust σ) cut far less: (0.139, 0.048) from a 6-exchange window averages 10.4 and (0.19, 0.07)
 * from pooled windows without the role prefix 17.4, against 18.3 for the reference (0.20, 0.14),
 * because on short turns a cut needs the surprise term near its clip and a cohesion drop of about
 * one unit together, and a median centre rarely puts the surprise term there.
 *
 * <p>{@link #measure} gives the plain statistics of s and of the cohesion drop against a simulated
 * open segment of the previous {@code window} exchanges (default 6), for inspection and for
 * embedders without a fit.
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
   * Fits β (see the class comment) on sessions of embedded exchanges, each in order.
   *
   * @param sessions per session, its exchanges with their unit vectors
   * @param config the segmentation configuration the profile will be used with
   * @param reference the profile of the reference model (normally {@link
   *     EmbeddingProfile#TEXT_EMBEDDING_3_SMALL})
   * @throws IllegalArgumentException if the sessions produce no boundary decision
   */
  public static Fit fit(List<List<Exchange>> sessions, SegmentationConfig config, EmbeddingProfile reference) {
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(reference, "reference");
    // g(β) = spread(β)/referenceScale − β falls as β grows (a larger β cuts less, the segments
    // grow and the surprise against them spreads less), and is positive near 0. Bisection finds
    // the crossing even where g jumps, which a plain fixed-point iteration would circle around.
    double lo = 0;
    double hi = 1;
    int iterations = 0;
    while (gap(sessions, config, reference, hi) > 0) {
      iterations++;
      lo = hi;
      hi *= 2;
      if (hi > MAX_BETA) {
        throw new IllegalArgumentException("no calibration below beta = " + MAX_BETA);
      }
    }
    while (hi - lo > TOLERANCE && iterations < MAX_ITERATIONS) {
      iterations++;
      double mid = (lo + hi) / 2;
      if (gap(sessions, config, reference, mid) > 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double beta = (lo + hi) / 2;
    if (beta < MIN_BETA) {
      throw new IllegalArgumentException("the surprise values have no spread; cannot calibrate");
    }
    EmbeddingProfile profile = scaled(reference, beta);
    Stats stats = Stats.of(decisionSurprises(sessions, config, profile));
    return new Fit(beta, profile, stats, iterations, hi - lo <= TOLERANCE);
  }

  /** g(β): the measured spread in reference units minus β. */
  private static double gap(
      List<List<Exchange>> sessions, SegmentationConfig config, EmbeddingProfile reference, double beta) {
    Stats stats = Stats.of(decisionSurprises(sessions, config, scaled(reference, beta)));
    return stats.robustSigma() / reference.surpriseScale() - beta;
  }

  /** The reference profile with centre and scale multiplied by {@code beta}. */
  public static EmbeddingProfile scaled(EmbeddingProfile reference, double beta) {
    return new EmbeddingProfile(reference.surpriseCenter() * beta, reference.surpriseScale() * beta);
  }

  private static final int MAX_ITERATIONS = 60;
  private static final double TOLERANCE = 1e-4;
  private static final double MAX_BETA = 64;
  private static final double MIN_BETA = 1e-3;

  /** Runs the semantic segmenter over every session and returns the surprise of each decision. */
  private static List<Double> decisionSurprises(
      List<List<Exchange>> sessions, SegmentationConfig config, EmbeddingProfile profile) {
    List<Double> out = new ArrayList<>();
    for (List<Exchange> session : sessions) {
      if (session.isEmpty()) {
        continue;
      }
      Exchange first = session.get(0);
      SemanticSegmenter segmenter = new SemanticSegmenter(first.namespace(), first.session(), config, profile);
      BoundaryDecision seen = null;
      for (Exchange e : session) {
        segmenter.offer(e);
        BoundaryDecision d = segmenter.lastDecision();
        if (d != null && d != seen) {
          out.add(d.surprise());
          seen = d;
        }
      }
      segmenter.flush();
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("the sessions produced no boundary decision");
    }
    return out;
  }

  /**
   * The result of {@link #fit}.
   *
   * @param beta the surprise ratio of the measured model to the reference model
   * @param profile the calibrated profile, the reference's centre and scale times β
   * @param surprise statistics of the surprise values seen at β
   * @param iterations iterations used
   * @param converged whether the bisection bracket shrank below 1e-4
   */
  public record Fit(double beta, EmbeddingProfile profile, Stats surprise, int iterations, boolean converged) {}

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

    /**
     * β estimated from this fixed window alone: the robust spread of s over {@code
     * reference.surpriseScale()}. A first guess; {@link #fit} measures the spread the segmenter
     * really meets.
     */
    public double beta(EmbeddingProfile reference) {
      return surprise.robustSigma() / reference.surpriseScale();
    }

    /**
     * The standardising profile of this window: centre = median s, scale = 1.4826·MAD of s. It
     * treats the reference's 0.20 as a median, which the zero-anchored model of the class comment
     * does not assume; on LoCoMo it cuts far less often than the reference model does (see {@link
     * SurpriseCalibrator#fit} for the calibration we recommend). Kept for inspection.
     */
    public EmbeddingProfile profile() {
      return new EmbeddingProfile(surprise.median(), surprise.robustSigma());
    }

    /**
     * The cohesion-drop unit implied by this window's spread: {@code referenceCohesionScale ·
     * robustSigma / referenceSurpriseScale}. This is what {@link BoundaryWeights#cohesionUnit}
     * computes for {@link #profile()}.
     */
    public double cohesionScale(double referenceSurpriseScale, double referenceCohesionScale) {
      return referenceCohesionScale * surprise.robustSigma() / referenceSurpriseScale;
    }
  }
}
