package dev.lychee.spring.ai.bridge;

import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.embedding.EmbeddingModel;

/**
 * Lychee's {@link Embedder} SPI on the application's Spring AI embedding model. Vectors are scaled
 * to unit length (Lychee's contract). The dimension is asked of the model once, lazily, unless
 * given. A failure of the model surfaces as {@link ProviderException} with the HTTP status Spring
 * AI reports, -1 when none.
 */
public final class SpringAiEmbedder implements Embedder {
  private final EmbeddingModel model;
  private final String modelId;
  private final EmbeddingProfile profile;
  private volatile int dimension;

  /**
   * @param model the application's embedding model
   * @param modelId the id Lychee records with its vectors
   * @param dimension the vector dimension, or 0 to ask the model
   * @param profile the segmentation calibration for this model
   */
  public SpringAiEmbedder(EmbeddingModel model, String modelId, int dimension, EmbeddingProfile profile) {
    this.model = Objects.requireNonNull(model, "model");
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank");
    }
    if (dimension < 0) {
      throw new IllegalArgumentException("dimension must be > 0, or 0 to ask the model: " + dimension);
    }
    this.modelId = modelId;
    this.dimension = dimension;
    this.profile = Objects.requireNonNull(profile, "profile");
  }

  /** A bridge that asks the model for its dimension and uses the default calibration. */
  public SpringAiEmbedder(EmbeddingModel model) {
    this(model, "spring-ai", 0, EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    for (String t : texts) {
      if (t == null || t.isBlank()) {
        throw new IllegalArgumentException("cannot embed blank text");
      }
    }
    List<float[]> vectors;
    try {
      vectors = model.embed(texts);
    } catch (RuntimeException e) {
      throw BridgeFailures.of("spring-ai:" + modelId, "the application's embedding model", e);
    }
    if (vectors == null || vectors.size() != texts.size()) {
      throw new ProviderException("spring-ai:" + modelId, -1, "the embedding model returned "
          + (vectors == null ? "nothing" : vectors.size() + " vectors") + " for " + texts.size() + " texts", null);
    }
    List<float[]> out = new ArrayList<>(vectors.size());
    for (float[] v : vectors) {
      out.add(unit(v));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    return embedDocuments(List.of(query)).get(0);
  }

  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return embedDocuments(queries);
  }

  @Override
  public int dimension() {
    int d = dimension;
    if (d == 0) {
      d = model.dimensions();
      dimension = d;
    }
    return d;
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public EmbeddingProfile profile() {
    return profile;
  }

  private float[] unit(float[] v) {
    if (dimension != 0 && v.length != dimension) {
      throw new ProviderException("spring-ai:" + modelId, -1,
          "the embedding model returned a vector of dimension " + v.length + ", expected " + dimension, null);
    }
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (!(sum > 0) || !Double.isFinite(sum)) {
      throw new ProviderException("spring-ai:" + modelId, -1, "the embedding model returned a zero or invalid vector", null);
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] * inv;
    }
    return out;
  }

  @Override
  public String toString() {
    return "SpringAiEmbedder[" + modelId + "]";
  }
}
