package dev.lychee.core.segment;

import dev.lychee.api.Exchange;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Calibrates an embedder's {@link EmbeddingProfile} from the surprise and cohesion drop it shows
 * on conversational text. Pure: it reads vectors (and, for the fit, exchanges) and returns numbers.
 *
 * <p><b>Surprise.</b> The paper's centre 0.20 and scale 0.14 are in the cosine scale of
 * text-embedding-3-small. Other models compress or stretch cosine differences, so we map surprise
 * between models linearly through zero, {@code s_model = β·s_reference}: an exchange identical to
 * its segment has no surprise in any model. The profile's centre and scale are then {@code
 * (0.20·β, 0.14·β)}. β is chosen so that the robust spread (1.4826·MAD) of the surprise values
 * the segmenter actually meets is one scale unit: {@code 1.4826·MAD(s | β) = 0.14·β}. The left
 * side depends on β through the segments the segmenter forms, so β is found by bisection.
 *
 * <p><b>Cohesion unit.</b> The drop is calibrated on its own distribution, not tied to the
 * surprise scale: the same robust spread estimator, taken about the drop's neutral value 0 (no
 * cohesion lost) rather than about a median, over the drops as the configured {@link
 * CohesionDropMode} reads them at the decisions where they count: {@code unit = 1.4826·median(Δ
 * read)}. (For a half-normal variable this is its σ.) Tying the unit to the surprise scale
 * instead ({@code 0.06·β}) assumes that the drop compresses like the surprise, which fails for
 * small segments: for a one-exchange segment Δ is a function of the neighbour cosine, and BGE's
 * neighbour cosines sit high (around 0.75) rather than being spread from 0.
 *
 * <p><b>Joint fit</b> ({@link #fit}). β and the unit depend on each other through the segments
 * formed, so they are fitted alternately (β by bisection for the current unit, then the unit from
 * the decisions at that β) until the unit moves by less than 1e-4. Nothing in the fit looks at
 * segment counts or at any target length.
 *
 * <p><b>Measured.</b> BGE-small-en-v1.5-q (document side) on the LoCoMo dev file (128 sessions,
 * 2,760 turns), each turn one exchange with the segmenter's text ({@code "user: <speaker>:
 * <text>"}), default configuration (size-normalised drop, threshold 0.5): β = 0.408, so profile
 * (0.0816, 0.0571) and cohesion unit 0.0281, converged after 4 rounds. With it the semantic
 * segmenter averages 6.3 turns per segment there (median 5, p90 12). See {@code
 * OnnxEmbedder.PROFILE} for the alternatives measured.
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
   * Fits β and the cohesion unit jointly (see the class comment) on sessions of embedded
   * exchanges, each in order.
   *
   * @param sessions per session, its exchanges with their unit vectors
   * @param config the segmentation configuration the profile will be used with
   * @param reference the profile of the reference model (normally {@link
   *     EmbeddingProfile#TEXT_EMBEDDING_3_SMALL})
   * @throws IllegalArgumentException if the sessions produce no boundary decision, or the
   *     surprise or the drop has no spread
   */
  public static Fit fit(List<List<Exchange>> sessions, SegmentationConfig config, EmbeddingProfile reference) {
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(reference, "reference");
    int iterations = 0;
    // First round: the unit tied to the surprise scale (NaN = derived by BoundaryWeights).
    double unit = Double.NaN;
    Bisection b = fitBeta(sessions, config, reference, unit);
    iterations += b.iterations();
    boolean converged = false;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      double measured = decisions(sessions, config, scaled(reference, b.beta(), unit)).unit();
      if (!(measured > 0)) {
        throw new IllegalArgumentException("the cohesion drops have no spread; cannot calibrate");
      }
      if (!Double.isNaN(unit) && Math.abs(measured - unit) < TOLERANCE) {
        converged = b.converged();
        break;
      }
      unit = measured;
      b = fitBeta(sessions, config, reference, unit);
      iterations += b.iterations();
    }
    EmbeddingProfile profile = scaled(reference, b.beta(), unit);
    Decisions d = decisions(sessions, config, profile);
    return new Fit(b.beta(), profile, Stats.of(d.surprises()), Stats.of(d.drops()), iterations, converged);
  }

  private record Bisection(double beta, int iterations, boolean converged) {}

  /** β for a fixed cohesion unit (NaN: the unit follows the scale). */
  private static Bisection fitBeta(
      List<List<Exchange>> sessions, SegmentationConfig config, EmbeddingProfile reference, double unit) {
    // g(β) = spread(β)/referenceScale − β falls as β grows (a larger β cuts less, the segments
    // grow and the surprise against them spreads less), and is positive near 0. Bisection finds
    // the crossing even where g jumps, which a plain fixed-point iteration would circle around.
    double lo = 0;
    double hi = 1;
    int iterations = 0;
    while (gap(sessions, config, reference, hi, unit) > 0) {
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
      if (gap(sessions, config, reference, mid, unit) > 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double beta = (lo + hi) / 2;
    if (beta < MIN_BETA) {
      throw new IllegalArgumentException("the surprise values have no spread; cannot calibrate");
    }
    return new Bisection(beta, iterations, hi - lo <= TOLERANCE);
  }

  /** g(β): the measured spread in reference units minus β. */
  private static double gap(List<List<Exchange>> sessions, SegmentationConfig config,
      EmbeddingProfile reference, double beta, double unit) {
    Stats stats = Stats.of(decisions(sessions, config, scaled(reference, beta, unit)).surprises());
    return stats.robustSigma() / reference.surpriseScale() - beta;
  }

  /**
   * The reference profile with centre and scale multiplied by {@code beta}, without a cohesion
   * unit of its own (the segmenter then ties it to the scale).
   */
  public static EmbeddingProfile scaled(EmbeddingProfile reference, double beta) {
    return scaled(reference, beta, Double.NaN);
  }

  /** The reference profile with centre and scale multiplied by {@code beta} and the given unit. */
  public static EmbeddingProfile scaled(EmbeddingProfile reference, double beta, double cohesionUnit) {
    return new EmbeddingProfile(reference.surpriseCenter() * beta, reference.surpriseScale() * beta, cohesionUnit);
  }

  private static final int MAX_ITERATIONS = 60;
  private static final int MAX_ROUNDS = 20;
  private static final double TOLERANCE = 1e-4;
  private static final double MAX_BETA = 64;
  private static final double MIN_BETA = 1e-3;

  /** What the segmenter met: the surprise and the read drop of each decision where it counts. */
  private record Decisions(List<Double> surprises, List<Double> drops) {
    /** 1.4826·median of the read drops: their robust spread about 0. */
    double unit() {
      if (drops.isEmpty()) {
        throw new IllegalArgumentException("no decision in which the cohesion drop counts");
      }
      return 1.4826 * BoundarySignals.median(drops.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }

  /** Runs the semantic segmenter over every session and collects its decisions. */
  private static Decisions decisions(
      List<List<Exchange>> sessions, SegmentationConfig config, EmbeddingProfile profile) {
    List<Double> surprises = new ArrayList<>();
    List<Double> drops = new ArrayList<>();
    CohesionDropMode mode = config.cohesionDropMode();
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
          surprises.add(d.surprise());
          if (mode.counts(d.exchanges())) {
            drops.add(mode.read(d.drop(), d.exchanges()));
          }
          seen = d;
        }
      }
      segmenter.flush();
    }
    if (surprises.isEmpty()) {
      throw new IllegalArgumentException("the sessions produced no boundary decision");
    }
    return new Decisions(surprises, drops);
  }

  /**
   * The result of {@link #fit}.
   *
   * @param beta the surprise ratio of the measured model to the reference model
   * @param profile the calibrated profile: the reference's centre and scale times β, and the
   *     cohesion unit measured on the drop
   * @param surprise statistics of the surprise values seen with the profile
   * @param drop statistics of the read drops (where they count) seen with the profile
   * @param iterations bisection steps used, over all rounds
   * @param converged whether the last bisection bracket shrank below 1e-4 and the unit settled
   */
  public record Fit(
      double beta, EmbeddingProfile profile, Stats surprise, Stats drop, int iterations, boolean converged) {}

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
