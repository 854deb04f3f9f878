package dev.lychee.api.spi;

/**
 * Per-embedder calibration of the segmenter's surprise and cohesion signals: the absolute
 * surprise {@code a = clamp((s - surpriseCenter) / surpriseScale, -1, 2.5)} and the cohesion
 * signal {@code C = min(2.5, drop / cohesionUnit)}.
 *
 * <p>Cosine scales differ between embedding models, so the values that were fitted to one model do
 * not carry over to another. Each {@link Embedder} states its own.
 *
 * @param surpriseCenter the surprise value that counts as "neutral"
 * @param surpriseScale how much surprise counts as one unit, {@code > 0}
 * @param cohesionUnit how much cohesion drop counts as one unit of the cohesion signal, {@code >
 *     0}, or {@link Double#NaN} when it was not measured for this embedder; the segmenter then
 *     derives it from {@code surpriseScale} (see {@link #hasCohesionUnit()})
 */
public record EmbeddingProfile(double surpriseCenter, double surpriseScale, double cohesionUnit) {

  /**
   * The paper's values, fitted to OpenAI's text-embedding-3-small: centre 0.20, scale 0.14,
   * cohesion unit 0.06.
   */
  public static final EmbeddingProfile TEXT_EMBEDDING_3_SMALL = new EmbeddingProfile(0.20, 0.14, 0.06);

  public EmbeddingProfile {
    if (!(surpriseScale > 0) || Double.isNaN(surpriseCenter)) {
      throw new IllegalArgumentException("surpriseScale must be > 0 and centre a number");
    }
    if (!Double.isNaN(cohesionUnit) && !(cohesionUnit > 0 && Double.isFinite(cohesionUnit))) {
      throw new IllegalArgumentException("cohesionUnit must be > 0 (or NaN for 'not measured'): " + cohesionUnit);
    }
  }

  /** A profile without a measured cohesion unit (the segmenter derives it from the scale). */
  public EmbeddingProfile(double surpriseCenter, double surpriseScale) {
    this(surpriseCenter, surpriseScale, Double.NaN);
  }

  /** Whether this profile states its own cohesion unit. */
  public boolean hasCohesionUnit() {
    return !Double.isNaN(cohesionUnit);
  }
}
