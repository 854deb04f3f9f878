package dev.lychee.llm.ollama;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import io.github.ollama4j.models.embeddings.OllamaEmbedRequestModel;
import io.github.ollama4j.models.embeddings.OllamaEmbedResponseModel;
import io.github.ollama4j.utils.Utils;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link Embedder} on Ollama's batch endpoint ({@code POST <host>/api/embed}, ollama4j's
 * {@link OllamaEmbedRequestModel} / {@link OllamaEmbedResponseModel}). Vectors are re-normalised
 * to unit length (Ollama normalises, but Lychee's contract should not rest on that); the dimension
 * is the configured one or learned from the first response. Thread-safe.
 */
public final class OllamaEmbedder implements Embedder {
  static final String PATH = "/api/embed";

  private final OllamaConfig config;
  private final OllamaHttp http;
  private volatile int dimension;

  public OllamaEmbedder(OllamaConfig config) {
    if (!config.hasEmbeddingModel()) {
      throw new IllegalArgumentException("OllamaConfig has no embedding model; set embeddingModel(..)");
    }
    this.config = config;
    this.http = new OllamaHttp(config);
    this.dimension = config.embeddingDimension();
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (String t : texts) {
      if (t == null || t.isBlank()) {
        throw new IllegalArgumentException("cannot embed null or blank text");
      }
    }
    if (texts.isEmpty()) {
      return List.of();
    }
    OllamaEmbedRequestModel request = new OllamaEmbedRequestModel(config.embeddingModel(), List.copyOf(texts));
    // texts longer than the model's window are truncated by the server, never rejected
    request.setTruncate(Boolean.TRUE);
    String json;
    try {
      json = Utils.getObjectMapper().writeValueAsString(request);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise an Ollama embed request", e);
    }
    String body = http.post(PATH, json, config.embeddingModel());
    String endpoint = http.endpoint(PATH);
    OllamaEmbedResponseModel response;
    try {
      response = OllamaHttp.READER.readValue(body, OllamaEmbedResponseModel.class);
    } catch (JsonProcessingException e) {
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a body that is not an Ollama embed response: " + e.getOriginalMessage(), e);
    }
    List<List<Double>> vectors = response == null ? null : response.getEmbeddings();
    if (vectors == null || vectors.size() != texts.size()) {
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned " + (vectors == null ? "no" : vectors.size()) + " embeddings for " + texts.size() + " texts", null);
    }
    List<float[]> out = new ArrayList<>(vectors.size());
    for (List<Double> v : vectors) {
      out.add(normalise(v, endpoint));
    }
    return out;
  }

  private float[] normalise(List<Double> values, String endpoint) {
    if (values == null || values.isEmpty()) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned an empty embedding", null);
    }
    int expected = dimension;
    if (expected == 0) {
      dimension = values.size();
    } else if (values.size() != expected) {
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a " + values.size() + "-dimensional embedding, expected " + expected, null);
    }
    double sum = 0;
    for (Double d : values) {
      sum += d * d;
    }
    if (!(sum > 0) || Double.isInfinite(sum)) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned a zero or non-finite embedding", null);
    }
    double inv = 1.0 / Math.sqrt(sum);
    float[] v = new float[values.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (values.get(i) * inv);
    }
    return v;
  }

  @Override
  public float[] embedQuery(String query) {
    if (query == null || query.isBlank()) {
      throw new IllegalArgumentException("cannot embed a null or blank query");
    }
    return embedDocuments(List.of(query)).get(0);
  }

  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return embedDocuments(queries);
  }

  /** The configured dimension, or learned from a response (a one-text probe if none yet). */
  @Override
  public int dimension() {
    if (dimension == 0) {
      embedQuery("dimension probe");
    }
    return dimension;
  }

  @Override
  public String modelId() {
    return config.embeddingModel();
  }

  @Override
  public EmbeddingProfile profile() {
    return config.embeddingProfile();
  }
}
