package dev.lychee.api.spi;

/**
 * Per-embedder calibration of the segmenter's absolute-surprise signal,
 * {@code a = clamp((s - surpriseCenter) / surpriseScale, -1, 2.5)}.
 *
 * <p>Cosine scales differ between embedding models, so the centre and scale that were fitted to
 * one model do not carry over to another. Each {@link Embedder} states its own.
 *
 * @param surpriseCenter the surprise value that counts as "neutral"
 * @param surpriseScale how much surprise counts as one unit, {@code > 0}
 */
public record EmbeddingProfile(double surpriseCenter, double surpriseScale) {

  /** The paper's values, fitted to OpenAI's text-embedding-3-small: centre 0.20, scale 0.14. */
  public static final EmbeddingProfile TEXT_EMBEDDING_3_SMALL = new EmbeddingProfile(0.20, 0.14);

  public EmbeddingProfile {
    if (!(surpriseScale > 0) || Double.isNaN(surpriseCenter)) {
      throw new IllegalArgumentException("surpriseScale must be > 0 and centre a number");
    }
  }
}
