package dev.lychee.llm.openai;

import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.Embedding;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.errors.OpenAIInvalidDataException;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.provider.embed.RemoteEmbedder;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link dev.lychee.api.spi.Embedder} on the OpenAI embeddings API ({@code POST <baseUrl>/embeddings}).
 *
 * <p>Texts are sent in batches of {@link OpenAiConfig#embeddingBatchSize()}; results are put back
 * in input order by each item's {@code index} (servers need not answer in order) and re-normalised
 * to unit length, because compatible servers do not all normalise (OpenAI's own vectors are
 * already unit length, so for them this changes nothing but rounding). The dimension is the
 * configured one, or learned from the first response. Queries and documents are embedded alike.
 * Thread-safe.
 */
public final class OpenAiEmbedder extends RemoteEmbedder implements AutoCloseable {
  static final String PATH = "/embeddings";

  private final OpenAiConfig config;
  private final OpenAiTransport transport;

  public OpenAiEmbedder(OpenAiConfig config) {
    super(config.embeddingDimension(), config.embeddingBatchSize());
    if (!config.hasEmbeddingModel()) {
      throw new IllegalArgumentException("OpenAiConfig has no embedding model; set embeddingModel(..)");
    }
    this.config = config;
    this.transport = new OpenAiTransport(config);
  }

  @Override
  protected String endpoint() {
    return transport.endpoint(PATH);
  }

  @Override
  protected List<List<Float>> embedBatch(List<String> batch) {
    EmbeddingCreateParams params =
        EmbeddingCreateParams.builder()
            .model(config.embeddingModel())
            .inputOfArrayOfStrings(batch)
            // explicit: some SDK versions default to base64, which not every compatible server speaks
            .encodingFormat(EmbeddingCreateParams.EncodingFormat.FLOAT)
            .build();
    CreateEmbeddingResponse response = transport.execute(PATH, client -> client.embeddings().create(params));
    String endpoint = endpoint();
    try {
      List<Embedding> data = response.data();
      if (data.size() != batch.size()) {
        throw new ProviderException(endpoint, -1,
            "POST " + endpoint + " returned " + data.size() + " embeddings for " + batch.size() + " texts", null);
      }
      List<List<Float>> ordered = new ArrayList<>(java.util.Collections.nCopies(batch.size(), null));
      for (Embedding e : data) {
        long index = e.index();
        if (index < 0 || index >= batch.size() || ordered.get((int) index) != null) {
          throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned a bad embedding index " + index, null);
        }
        ordered.set((int) index, e.embedding());
      }
      return ordered;
    } catch (OpenAIInvalidDataException e) {
      throw new ProviderException(endpoint, -1,
          "POST " + endpoint + " returned a body that is not an embedding response: " + transport.safe(e.getMessage()), e);
    }
  }

  @Override
  public String modelId() {
    return config.embeddingModel();
  }

  @Override
  public EmbeddingProfile profile() {
    return config.embeddingProfile();
  }

  @Override
  public void close() {
    transport.close();
  }
}
