package dev.lychee.llm.ollama;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.provider.embed.RemoteEmbedder;
import io.github.ollama4j.models.embeddings.OllamaEmbedRequestModel;
import io.github.ollama4j.models.embeddings.OllamaEmbedResponseModel;
import io.github.ollama4j.utils.Utils;
import java.util.List;

/**
 * {@link dev.lychee.api.spi.Embedder} on Ollama's batch endpoint ({@code POST <host>/api/embed}, ollama4j's
 * {@link OllamaEmbedRequestModel} / {@link OllamaEmbedResponseModel}). Vectors are re-normalised
 * to unit length (Ollama normalises, but Lychee's contract should not rest on that); the dimension
 * is the configured one or learned from the first response. Thread-safe.
 */
public final class OllamaEmbedder extends RemoteEmbedder {
  static final String PATH = "/api/embed";

  private final OllamaConfig config;
  private final OllamaHttp http;

  public OllamaEmbedder(OllamaConfig config) {
    // at most embeddingBatchSize texts per request: the timeout is per request, and a whole
    // session's texts in one request (a backfill) could outlast any timeout on a CPU
    super(config.embeddingDimension(), config.embeddingBatchSize());
    if (!config.hasEmbeddingModel()) {
      throw new IllegalArgumentException("OllamaConfig has no embedding model; set embeddingModel(..)");
    }
    this.config = config;
    this.http = new OllamaHttp(config);
  }

  @Override
  protected String endpoint() {
    return http.endpoint(PATH);
  }

  @Override
  protected List<List<Double>> embedBatch(List<String> texts) {
    OllamaEmbedRequestModel request = new OllamaEmbedRequestModel(config.embeddingModel(), texts);
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
    return response == null ? null : response.getEmbeddings();
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
