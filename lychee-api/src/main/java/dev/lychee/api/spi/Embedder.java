package dev.lychee.api.spi;

import java.util.List;
import java.util.Optional;
import java.util.Objects;

/**
 * Turns text into unit-length float vectors.
 *
 * <p>Contract: every returned vector has {@link #dimension()} components and L2 norm 1 (within
 * 1e-4); the same text always yields the same vector; document and query sides may differ (for
 * example an instruction prefix on queries only). Implementations are thread-safe.
 *
 * <p>Errors: null or blank texts are rejected with {@link IllegalArgumentException}; texts longer
 * than the model's window are truncated, never rejected. A remote failure is thrown as
 * {@link dev.lychee.api.ProviderException}.
 */
public interface Embedder {

  /**
   * Embeds documents (turns, records, nodes) in one batch.
   *
   * @return one vector per text, in input order; an empty list for an empty input
   */
  List<float[]> embedDocuments(List<String> texts);

  /**
   * Embeds documents with a priority hint (see {@link EmbeddingPriority}): same vectors as {@link
   * #embedDocuments(List)}, which the default calls, ignoring the hint. An embedder that shares
   * its hardware between callers may run foreground batches first.
   *
   * @throws NullPointerException when {@code priority} is null
   */
  default List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
    Objects.requireNonNull(priority, "priority");
    return embedDocuments(texts);
  }

  /** Embeds one search query (query side). */
  float[] embedQuery(String query);

  /** Embeds several queries; the default calls {@link #embedQuery} for each. */
  default List<float[]> embedQueries(List<String> queries) {
    return queries.stream().map(this::embedQuery).toList();
  }

  /** The vector dimension. */
  int dimension();

  /** A stable id of the model, for example {@code bge-small-en-v1.5-q}. */
  String modelId();

  /** Calibration of segmentation signals for this model. */
  default EmbeddingProfile profile() {
    return EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;
  }

  /**
   * Calibration of segmentation signals for exchanges embedded as their turn's own text, {@code
   * "<speaker>: <text>"} without the {@code "<role>: "} line prefix (the segmentation option
   * {@code exchangeVectorsFromTurns}), or empty when this model was not calibrated on such texts.
   * Without the shared prefix consecutive texts look less alike to a model, so the profile fitted
   * on exchange texts ({@link #profile()}) draws more boundaries on them; for an embedder that returns
   * empty here the segmenter reads {@link #profile()} on such texts too.
   */
  default Optional<EmbeddingProfile> turnTextProfile() {
    return Optional.empty();
  }
}
