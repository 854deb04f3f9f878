package dev.lychee.llm.openai;

import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.Embedding;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.errors.OpenAIInvalidDataException;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link Embedder} on the OpenAI embeddings API ({@code POST <baseUrl>/embeddings}).
 *
 * <p>Texts are sent in batches of {@link OpenAiConfig#embeddingBatchSize()}; results are put back
 * in input order by each item's {@code index} (servers need not answer in order) and re-normalised
 * to unit length, because compatible servers do not all normalise (OpenAI's own vectors are
 * already unit length, so for them this changes nothing but rounding). The dimension is the
 * configured one, or learned from the first response. Queries and documents are embedded alike.
 * Thread-safe.
 */
public final class OpenAiEmbedder implements Embedder, AutoCloseable {
  static final String PATH = "/embeddings";

  private final OpenAiConfig config;
  private final OpenAiTransport transport;
  private volatile int dimension;

  public OpenAiEmbedder(OpenAiConfig config) {
    if (!config.hasEmbeddingModel()) {
      throw new IllegalArgumentException("OpenAiConfig has no embedding model; set embeddingModel(..)");
    }
    this.config = config;
    this.transport = new OpenAiTransport(config);
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
    List<float[]> out = new ArrayList<>(texts.size());
    for (int from = 0; from < texts.size(); from += config.embeddingBatchSize()) {
      out.addAll(embedBatch(texts.subList(from, Math.min(texts.size(), from + config.embeddingBatchSize()))));
    }
    return out;
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

  private List<float[]> embedBatch(List<String> batch) {
    EmbeddingCreateParams params =
        EmbeddingCreateParams.builder()
            .model(config.embeddingModel())
            .inputOfArrayOfStrings(List.copyOf(batch))
            // explicit: some SDK versions default to base64, which not every compatible server speaks
            .encodingFormat(EmbeddingCreateParams.EncodingFormat.FLOAT)
            .build();
    CreateEmbeddingResponse response = transport.execute(PATH, client -> client.embeddings().create(params));
    String endpoint = transport.endpoint(PATH);
    try {
      List<Embedding> data = response.data();
      if (data.size() != batch.size()) {
        throw new ProviderException(
            endpoint, -1, "POST " + endpoint + " returned " + data.size() + " embeddings for " + batch.size() + " texts", null);
      }
      float[][] ordered = new float[batch.size()][];
      for (Embedding e : data) {
        long index = e.index();
        if (index < 0 || index >= batch.size() || ordered[(int) index] != null) {
          throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned a bad embedding index " + index, null);
        }
        ordered[(int) index] = normalise(e.embedding(), endpoint);
      }
      return List.of(ordered);
    } catch (OpenAIInvalidDataException e) {
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a body that is not an embedding response: " + e.getMessage(), e);
    }
  }

  private float[] normalise(List<Float> values, String endpoint) {
    if (values.isEmpty()) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned an empty embedding", null);
    }
    int expected = dimension;
    if (expected == 0) {
      dimension = values.size();
    } else if (values.size() != expected) {
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a " + values.size() + "-dimensional embedding, expected " + expected, null);
    }
    float[] v = new float[values.size()];
    double sum = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = values.get(i);
      sum += (double) v[i] * v[i];
    }
    if (!(sum > 0) || Double.isInfinite(sum)) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " returned a zero or non-finite embedding", null);
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  /**
   * The vector dimension: the configured one, otherwise learned from a response (a one-text probe
   * request is sent if nothing has been embedded yet).
   */
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

  @Override
  public void close() {
    transport.close();
  }
}
