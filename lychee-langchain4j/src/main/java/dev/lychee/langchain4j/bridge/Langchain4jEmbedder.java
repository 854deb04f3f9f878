package dev.lychee.langchain4j.bridge;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Lychee's {@link Embedder} SPI on the application's own langchain4j embedding model. Vectors are
 * scaled to unit length (Lychee's contract; many providers already return unit vectors). The
 * dimension is asked of the model once, lazily, unless it is given. A failure of the model
 * surfaces as {@link ProviderException} with the HTTP status langchain4j reports, -1 when none.
 */
public final class Langchain4jEmbedder implements Embedder {
  private final EmbeddingModel model;
  private final String modelId;
  private final EmbeddingProfile profile;
  private volatile int dimension;

  /**
   * @param model the application's embedding model
   * @param dimension the vector dimension, or 0 to ask the model
   * @param profile the segmentation calibration for this model (see {@link EmbeddingProfile})
   */
  public Langchain4jEmbedder(EmbeddingModel model, int dimension, EmbeddingProfile profile) {
    this.model = Objects.requireNonNull(model, "model");
    if (dimension < 0) {
      throw new IllegalArgumentException("dimension must be > 0, or 0 to ask the model: " + dimension);
    }
    this.dimension = dimension;
    this.profile = Objects.requireNonNull(profile, "profile");
    String name = model.modelName();
    this.modelId = name == null || name.isBlank() || "unknown".equals(name) ? "langchain4j" : name;
  }

  /** A bridge that asks the model for its dimension and uses the default calibration. */
  public Langchain4jEmbedder(EmbeddingModel model) {
    this(model, 0, EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    List<TextSegment> segments = new ArrayList<>(texts.size());
    for (String t : texts) {
      segments.add(TextSegment.from(requireText(t)));
    }
    Response<List<Embedding>> response;
    try {
      response = model.embedAll(segments);
    } catch (RuntimeException e) {
      throw BridgeFailures.of("langchain4j:" + modelId, "the application's embedding model", e);
    }
    List<Embedding> vectors = response == null ? null : response.content();
    if (vectors == null || vectors.size() != texts.size()) {
      throw new ProviderException("langchain4j:" + modelId, -1, "the embedding model returned "
          + (vectors == null ? "nothing" : vectors.size() + " vectors") + " for " + texts.size() + " texts", null);
    }
    List<float[]> out = new ArrayList<>(vectors.size());
    for (Embedding e : vectors) {
      out.add(unit(e.vector()));
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
      d = model.dimension();
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

  private static String requireText(String t) {
    if (t == null || t.isBlank()) {
      throw new IllegalArgumentException("cannot embed blank text");
    }
    return t;
  }

  private float[] unit(float[] v) {
    if (dimension != 0 && v.length != dimension) {
      throw new ProviderException("langchain4j:" + modelId, -1,
          "the embedding model returned a vector of dimension " + v.length + ", expected " + dimension, null);
    }
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (!(sum > 0) || !Double.isFinite(sum)) {
      throw new ProviderException("langchain4j:" + modelId, -1, "the embedding model returned a zero or invalid vector", null);
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
    return "Langchain4jEmbedder[" + modelId + "]";
  }
}
