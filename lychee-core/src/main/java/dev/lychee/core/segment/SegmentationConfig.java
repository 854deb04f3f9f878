package dev.lychee.core.segment;

import java.util.Objects;

/**
 * Every constant of segmentation, validated once (docs/defaults.md §1.1). Build with {@link
 * #builder()}; {@link #defaults()} gives the documented defaults.
 *
 * <p>Ranges (invalid values are rejected with {@link IllegalArgumentException}, never silently
 * clamped, so that a typo in a configuration file is noticed):
 *
 * <ul>
 *   <li>{@code maxTokens} (hard cap, default 2000) ≥ 512;
 *   <li>{@code minTokens} (default 1000) in [128, maxTokens]. <b>Stored but unused</b>: the
 *       authors keep it and no decision reads it; we keep it for parity and inspection;
 *   <li>{@code targetTokens} (default 1500) in [minTokens, maxTokens]: a segment that reaches it
 *       closes;
 *   <li>{@code threshold} on the boundary probability (default {@value #PAPER_THRESHOLD}, the
 *       paper's δ) in [0.05, 0.95]. The authors' code uses {@value #AUTHORS_THRESHOLD}: {@code
 *       builder().threshold(SegmentationConfig.AUTHORS_THRESHOLD)};
 *   <li>{@code maxEmbeddingChars} (default 4000) ≥ 256: longer exchange texts are shortened to
 *       head + {@code "\n...\n"} + tail before embedding;
 *   <li>{@code historySize} (default 64) ≥ 1 surprise values kept for the robust z;
 *       {@code minHistory} (default 5) in [1, historySize] values needed before z is used;
 *   <li>{@code windowTokens} (default 600) ≥ 1 and {@code windowExchanges} (default 10) ≥ 1 for
 *       the fixed-window segmenter;
 *   <li>{@code cohesionDropMode} (default {@link CohesionDropMode#SIZE_NORMALISED}): how the
 *       cohesion drop is read. The authors read it raw ({@link CohesionDropMode#RAW}); see that
 *       enum for why the default differs;
 *   <li>{@code exchangeVectorsFromTurns} (default false): an exchange of a single whole turn is
 *       embedded as that turn's own text ({@code "<speaker>: <text>"}, the text its turn vector
 *       comes from) instead of its {@code "<role>: "} line, so the write path embeds one text for
 *       both and the exchange takes the turn's vector (docs/defaults.md §1.3).
 * </ul>
 *
 * <p>{@link #authors()} gives the configuration of the authors' code (threshold 0.55, raw drop),
 * under which the spec's test vectors hold.
 *
 * <p>The combination weights, clips, length curve and turn curve are in {@link BoundaryWeights},
 * {@link LengthCurve} and {@link TurnCurve}. The absolute-surprise centre and scale and the
 * cohesion unit are not here: they belong to the embedder ({@link
 * dev.lychee.api.spi.EmbeddingProfile}).
 */
public record SegmentationConfig(
    int minTokens,
    int targetTokens,
    int maxTokens,
    double threshold,
    int maxEmbeddingChars,
    int historySize,
    int minHistory,
    BoundaryWeights weights,
    LengthCurve lengthCurve,
    TurnCurve turnCurve,
    int windowTokens,
    int windowExchanges,
    CohesionDropMode cohesionDropMode,
    boolean exchangeVectorsFromTurns) {

  /** The paper's boundary threshold δ (its sweep found 0.30–0.70 best; docs/defaults.md §1.1): the default. */
  public static final double PAPER_THRESHOLD = 0.5;
  /** The threshold in the authors' code (cut ⇔ score ≥ 1.300671 with the default bias). */
  public static final double AUTHORS_THRESHOLD = 0.55;

  private static final SegmentationConfig DEFAULTS = builder().build();
  private static final SegmentationConfig AUTHORS =
      builder().threshold(AUTHORS_THRESHOLD).cohesionDropMode(CohesionDropMode.RAW).build();

  public SegmentationConfig {
    if (maxTokens < 512) {
      throw new IllegalArgumentException("maxTokens (hard cap) must be >= 512: " + maxTokens);
    }
    if (minTokens < 128 || minTokens > maxTokens) {
      throw new IllegalArgumentException(
          "minTokens must be in [128, maxTokens=" + maxTokens + "]: " + minTokens);
    }
    if (targetTokens < minTokens || targetTokens > maxTokens) {
      throw new IllegalArgumentException("targetTokens must be in [minTokens=" + minTokens
          + ", maxTokens=" + maxTokens + "]: " + targetTokens);
    }
    if (!(threshold >= 0.05 && threshold <= 0.95)) {
      throw new IllegalArgumentException("threshold must be in [0.05, 0.95]: " + threshold);
    }
    if (maxEmbeddingChars < 256) {
      throw new IllegalArgumentException("maxEmbeddingChars must be >= 256: " + maxEmbeddingChars);
    }
    if (historySize < 1) {
      throw new IllegalArgumentException("historySize must be >= 1: " + historySize);
    }
    if (minHistory < 1 || minHistory > historySize) {
      throw new IllegalArgumentException(
          "minHistory must be in [1, historySize=" + historySize + "]: " + minHistory);
    }
    Objects.requireNonNull(weights, "weights");
    Objects.requireNonNull(lengthCurve, "lengthCurve");
    Objects.requireNonNull(turnCurve, "turnCurve");
    if (windowTokens < 1) {
      throw new IllegalArgumentException("windowTokens must be >= 1: " + windowTokens);
    }
    if (windowExchanges < 1) {
      throw new IllegalArgumentException("windowExchanges must be >= 1: " + windowExchanges);
    }
    Objects.requireNonNull(cohesionDropMode, "cohesionDropMode");
  }

  /** The documented defaults (threshold 0.5). */
  public static SegmentationConfig defaults() {
    return DEFAULTS;
  }

  /**
   * The authors' code: the defaults with threshold {@value #AUTHORS_THRESHOLD} and the raw
   * cohesion drop ({@link CohesionDropMode#RAW}). Every constant of docs/defaults.md §1.5.
   */
  public static SegmentationConfig authors() {
    return AUTHORS;
  }

  /** A builder preset to the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder preset to this configuration. */
  public Builder toBuilder() {
    return new Builder()
        .minTokens(minTokens)
        .targetTokens(targetTokens)
        .maxTokens(maxTokens)
        .threshold(threshold)
        .maxEmbeddingChars(maxEmbeddingChars)
        .historySize(historySize)
        .minHistory(minHistory)
        .weights(weights)
        .lengthCurve(lengthCurve)
        .turnCurve(turnCurve)
        .windowTokens(windowTokens)
        .windowExchanges(windowExchanges)
        .cohesionDropMode(cohesionDropMode)
        .exchangeVectorsFromTurns(exchangeVectorsFromTurns);
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private int minTokens = 1000;
    private int targetTokens = 1500;
    private int maxTokens = 2000;
    private double threshold = PAPER_THRESHOLD;
    private int maxEmbeddingChars = 4000;
    private int historySize = 64;
    private int minHistory = 5;
    private BoundaryWeights weights = BoundaryWeights.DEFAULTS;
    private LengthCurve lengthCurve = LengthCurve.DEFAULTS;
    private TurnCurve turnCurve = TurnCurve.DEFAULTS;
    private int windowTokens = 600;
    private int windowExchanges = 10;
    private CohesionDropMode cohesionDropMode = CohesionDropMode.SIZE_NORMALISED;
    private boolean exchangeVectorsFromTurns = false;

    private Builder() {}

    /** Stored for parity with the authors; no decision uses it. Default 1000. */
    public Builder minTokens(int v) {
      minTokens = v;
      return this;
    }

    /** A segment holding this many tokens closes. Default 1500. */
    public Builder targetTokens(int v) {
      targetTokens = v;
      return this;
    }

    /** Hard cap: an exchange that would pass it starts a new segment. Default 2000. */
    public Builder maxTokens(int v) {
      maxTokens = v;
      return this;
    }

    /** Cut when the boundary probability is at least this. Default 0.5 (paper); authors 0.55. */
    public Builder threshold(double v) {
      threshold = v;
      return this;
    }

    /** Longer texts are shortened before embedding. Default 4000 characters (code points). */
    public Builder maxEmbeddingChars(int v) {
      maxEmbeddingChars = v;
      return this;
    }

    /** Surprise values kept for the robust z. Default 64. */
    public Builder historySize(int v) {
      historySize = v;
      return this;
    }

    /** History values needed before the robust z counts (else z = 0). Default 5. */
    public Builder minHistory(int v) {
      minHistory = v;
      return this;
    }

    /** Weights and clips of the score. Default {@link BoundaryWeights#DEFAULTS}. */
    public Builder weights(BoundaryWeights v) {
      weights = v;
      return this;
    }

    /** Length pressure. Default {@link LengthCurve#DEFAULTS}. */
    public Builder lengthCurve(LengthCurve v) {
      lengthCurve = v;
      return this;
    }

    /** Turn-count signal. Default {@link TurnCurve#DEFAULTS}. */
    public Builder turnCurve(TurnCurve v) {
      turnCurve = v;
      return this;
    }

    /** Fixed-window segmenter: a window closes before it would pass this. Default 600 tokens. */
    public Builder windowTokens(int v) {
      windowTokens = v;
      return this;
    }

    /** Fixed-window segmenter: a window closes at this many exchanges. Default 10. */
    public Builder windowExchanges(int v) {
      windowExchanges = v;
      return this;
    }

    /** How the cohesion drop is read. Default size-normalised; the authors' is {@code RAW}. */
    public Builder cohesionDropMode(CohesionDropMode v) {
      cohesionDropMode = v;
      return this;
    }

    /**
     * An exchange of one whole turn is embedded as the turn's own text, so it takes the turn's
     * vector instead of a second embedding. Default false.
     */
    public Builder exchangeVectorsFromTurns(boolean v) {
      exchangeVectorsFromTurns = v;
      return this;
    }

    /** Validates and builds. */
    public SegmentationConfig build() {
      return new SegmentationConfig(minTokens, targetTokens, maxTokens, threshold,
          maxEmbeddingChars, historySize, minHistory, weights, lengthCurve, turnCurve,
          windowTokens, windowExchanges, cohesionDropMode, exchangeVectorsFromTurns);
    }
  }
}
