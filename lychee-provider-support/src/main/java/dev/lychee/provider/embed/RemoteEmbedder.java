package dev.lychee.provider.embed;

import dev.lychee.api.spi.Embedder;
import dev.lychee.provider.vectors.UnitVectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an embedder behind an HTTP API does besides the request itself: argument checks, batching,
 * unit-length vectors, and the dimension (configured, or learned from the first response, with a
 * one-text probe when asked before anything was embedded). Queries and documents are embedded
 * alike. Subclasses send one batch. Thread-safe when {@link #embedBatch} is.
 */
public abstract class RemoteEmbedder implements Embedder {
  private final int batchSize;
  private volatile int dimension;

  /**
   * @param dimension the configured dimension, or 0 to learn it
   * @param batchSize texts per request, {@code >= 1}
   */
  protected RemoteEmbedder(int dimension, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be >= 1: " + batchSize);
    }
    this.dimension = dimension;
    this.batchSize = batchSize;
  }

  /**
   * The raw vectors of one batch, in input order (not yet normalised).
   *
   * @throws dev.lychee.api.ProviderException when the server fails or answers nonsense
   */
  protected abstract List<? extends List<? extends Number>> embedBatch(List<String> batch);

  /** The URL of the embedding endpoint, as messages print it. */
  protected abstract String endpoint();

  @Override
  public final List<float[]> embedDocuments(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (String t : texts) {
      if (t == null || t.isBlank()) {
        throw new IllegalArgumentException("cannot embed null or blank text");
      }
    }
    List<float[]> out = new ArrayList<>(texts.size());
    for (int from = 0; from < texts.size(); from += batchSize) {
      List<String> batch = List.copyOf(texts.subList(from, Math.min(texts.size(), from + batchSize)));
      List<? extends List<? extends Number>> vectors = embedBatch(batch);
      if (vectors == null || vectors.size() != batch.size()) {
        throw new dev.lychee.api.ProviderException(endpoint(), -1, "POST " + endpoint() + " returned "
            + (vectors == null ? "no" : vectors.size()) + " embeddings for " + batch.size() + " texts", null);
      }
      for (List<? extends Number> v : vectors) {
        float[] unit = UnitVectors.normalise(v, dimension, endpoint(), "POST " + endpoint());
        if (dimension == 0) {
          dimension = unit.length;
        }
        out.add(unit);
      }
    }
    return out;
  }

  @Override
  public final float[] embedQuery(String query) {
    if (query == null || query.isBlank()) {
      throw new IllegalArgumentException("cannot embed a null or blank query");
    }
    return embedDocuments(List.of(query)).get(0);
  }

  @Override
  public final List<float[]> embedQueries(List<String> queries) {
    return embedDocuments(queries);
  }

  /** The configured dimension, or the one learned from a response (a one-text probe if none yet). */
  @Override
  public final int dimension() {
    if (dimension == 0) {
      embedQuery("dimension probe");
    }
    return dimension;
  }
}
