package dev.lychee.core.segment;

import dev.lychee.api.spi.EmbeddingProfile;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The arithmetic of a boundary decision (docs/defaults.md §1.5): pure functions over unit
 * vectors and numbers, with no state, so that they can be tested against the spec's vectors and
 * benchmarked in isolation. An instance binds the configuration and the embedder's profile; the
 * vector operations are static.
 *
 * <p>Typical use: {@code new BoundarySignals(config, profile).decide(openVectors, e, tokens,
 * history)}.
 */
public final class BoundarySignals {

  private final SegmentationConfig config;
  private final BoundaryWeights w;
  private final EmbeddingProfile profile;
  private final double cohesionUnit;

  public BoundarySignals(SegmentationConfig config, EmbeddingProfile profile) {
    this.config = Objects.requireNonNull(config, "config");
    this.w = config.weights();
    this.profile = Objects.requireNonNull(profile, "profile");
    this.cohesionUnit = profile.hasCohesionUnit()
        ? profile.cohesionUnit()
        : w.cohesionUnit(profile.surpriseScale());
  }

  // ---------------------------------------------------------------- vector signals (static)

  /** Dot product in double precision. */
  public static double dot(float[] a, double[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("dimension mismatch: " + a.length + " vs " + b.length);
    }
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }

  /** The normalised mean of {@code vectors} (a zero vector if the mean is zero). */
  public static double[] centroid(List<float[]> vectors) {
    return normalisedMean(vectors, 0, vectors.size(), null);
  }

  /** The normalised mean of the last {@code size} vectors (all of them if fewer). */
  public static double[] tail(List<float[]> vectors, int size) {
    int from = Math.max(0, vectors.size() - size);
    return normalisedMean(vectors, from, vectors.size(), null);
  }

  /** s = max(0, 1 − max(e·centroid, e·tail)). */
  public static double surprise(float[] e, double[] centroid, double[] tail) {
    return Math.max(0.0, 1.0 - Math.max(dot(e, centroid), dot(e, tail)));
  }

  /** Surprise of {@code e} against the open segment {@code open} (not empty), tail of {@code tailSize}. */
  public static double surprise(List<float[]> open, float[] e, int tailSize) {
    if (open.isEmpty()) {
      throw new IllegalArgumentException("surprise needs a non-empty open segment");
    }
    return surprise(e, centroid(open), tail(open, tailSize));
  }

  /** Cohesion: the mean of x·centroid(X) over X; 1 when X holds at most one vector. */
  public static double cohesion(List<float[]> vectors) {
    return cohesion(vectors, null);
  }

  /** Δ = max(0, cohesion(V) − cohesion(V ∪ {e})). */
  public static double cohesionDrop(List<float[]> open, float[] e) {
    return Math.max(0.0, cohesion(open, null) - cohesion(open, e));
  }

  /** Cohesion of {@code vectors} plus, when not null, {@code extra} as the last member. */
  private static double cohesion(List<float[]> vectors, float[] extra) {
    int n = vectors.size() + (extra == null ? 0 : 1);
    if (n <= 1) {
      return 1.0;
    }
    double[] c = normalisedMean(vectors, 0, vectors.size(), extra);
    double sum = 0;
    for (float[] x : vectors) {
      sum += dot(x, c);
    }
    if (extra != null) {
      sum += dot(extra, c);
    }
    return sum / n;
  }

  private static double[] normalisedMean(List<float[]> vectors, int from, int to, float[] extra) {
    int dim = extra != null ? extra.length : vectors.get(from).length;
    double[] sum = new double[dim];
    for (int i = from; i < to; i++) {
      add(sum, vectors.get(i));
    }
    if (extra != null) {
      add(sum, extra);
    }
    double norm = 0;
    for (double v : sum) {
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) {
      for (int i = 0; i < dim; i++) {
        sum[i] /= norm;
      }
    }
    return sum;
  }

  private static void add(double[] sum, float[] v) {
    if (v.length != sum.length) {
      throw new IllegalArgumentException("dimension mismatch: " + v.length + " vs " + sum.length);
    }
    for (int i = 0; i < v.length; i++) {
      sum[i] += v[i];
    }
  }

  // ---------------------------------------------------------------- robust statistics (static)

  /** Median; for an even count, the mean of the two middle values. Does not modify the input. */
  public static double median(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("median of nothing");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
  }

  /** Median absolute deviation from {@code median}. */
  public static double mad(double[] values, double median) {
    double[] dev = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      dev[i] = Math.abs(values[i] - median);
    }
    return median(dev);
  }

  /** The logistic function, saturated to exactly 0 / 1 outside ±50. */
  public static double sigmoid(double x) {
    if (x > 50) {
      return 1.0;
    }
    if (x < -50) {
      return 0.0;
    }
    return 1.0 / (1.0 + Math.exp(-x));
  }

  // ---------------------------------------------------------------- configured signals

  /** a = clamp((s − centre)/scale, absoluteMin, absoluteMax) with the embedder's profile. */
  public double absoluteSurprise(double s) {
    return clamp((s - profile.surpriseCenter()) / profile.surpriseScale(), w.absoluteMin(), w.absoluteMax());
  }

  /**
   * z = clamp((s − med)/(madScale·MAD), robustMin, robustMax) over {@code history} (the values
   * before s is added); 0 with fewer than {@code minHistory} values. A MAD of 0 is replaced by
   * {@code madFloor}.
   */
  public double robustSurprise(double s, double[] history) {
    if (history.length < config.minHistory()) {
      return 0.0;
    }
    double med = median(history);
    double mad = mad(history, med);
    if (mad == 0) {
      mad = w.madFloor();
    }
    return clamp((s - med) / (w.madScale() * mad), w.robustMin(), w.robustMax());
  }

  /**
   * C = min(cohesionMax, Δ/unit) when Δ > 0, else 0, for a drop already read by the configured
   * {@link CohesionDropMode}. The unit is the profile's {@link EmbeddingProfile#cohesionUnit()}
   * when it states one (0.06 for the reference profile), otherwise {@link
   * BoundaryWeights#cohesionUnit} of its surprise scale.
   */
  public double cohesionSignal(double drop) {
    return drop > 0 ? Math.min(w.cohesionMax(), drop / cohesionUnit) : 0.0;
  }

  /** The cohesion-drop unit in this embedder's cosine scale. */
  public double cohesionUnit() {
    return cohesionUnit;
  }

  /** L(T) for the open segment's tokens before the new exchange. */
  public double length(int tokens) {
    return config.lengthCurve().at(tokens);
  }

  /** H(n) for the exchanges already in the open segment. */
  public double turns(int exchanges) {
    return config.turnCurve().at(exchanges);
  }

  /** score = w_s·max(a, f·z) + w_c·C + w_l·L + w_h·H. */
  public double score(double a, double z, double c, double l, double h) {
    return w.surprise() * Math.max(a, w.robustFactor() * z) + w.cohesion() * c + w.length() * l + w.turns() * h;
  }

  /** p = sigmoid(score − bias). */
  public double probability(double score) {
    return sigmoid(score - w.bias());
  }

  /** Cut when p ≥ threshold. */
  public boolean cut(double probability) {
    return probability >= config.threshold();
  }

  /**
   * A decision from precomputed surprise and raw drop (the spec's test-vector inputs); the drop is
   * read by the configured {@link CohesionDropMode} with n = {@code exchanges}.
   */
  public BoundaryDecision decide(double s, double drop, int tokens, int exchanges, double[] history) {
    double a = absoluteSurprise(s);
    double z = robustSurprise(s, history);
    double c = cohesionSignal(config.cohesionDropMode().read(drop, exchanges));
    double l = length(tokens);
    double h = turns(exchanges);
    double score = score(a, z, c, l, h);
    double p = probability(score);
    return new BoundaryDecision(s, drop, a, z, c, l, h, score, p, cut(p), exchanges);
  }

  /**
   * The full decision for a new unit vector {@code e} against the open segment's unit vectors
   * {@code open} (not empty; n = open.size()), whose text holds {@code tokens} tokens.
   */
  public BoundaryDecision decide(List<float[]> open, float[] e, int tokens, double[] history) {
    double s = surprise(open, e, w.tailSize());
    double drop = cohesionDrop(open, e);
    return decide(s, drop, tokens, open.size(), history);
  }

  private static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
