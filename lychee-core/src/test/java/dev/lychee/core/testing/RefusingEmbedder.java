package dev.lychee.core.testing;

import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.Embedder;
import java.util.List;

/**
 * An embedder whose endpoint refuses every document batch (turns, exchanges, records) as a
 * rate-limited provider would, while queries embed as {@link HashingEmbedder} does: for the
 * adapters' tests of an append that stores its turns and then fails. The refusal's cause holds a
 * {@link #SECRET}, which no log line or listener message may show.
 */
public final class RefusingEmbedder implements Embedder {
  /** A key-like text in the refusal's cause. */
  public static final String SECRET = "sk-refused-secret-42";
  /** The first line of the refusal, which Lychee reports as the failure's kind. */
  public static final String REFUSAL = "the stub embedding endpoint answered 429 (rate limited)";

  private final HashingEmbedder queries = new HashingEmbedder();

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    throw new ProviderException("stub-embeddings", 429, REFUSAL,
        new IllegalStateException("request headers: Authorization: Bearer " + SECRET));
  }

  @Override
  public float[] embedQuery(String query) {
    return queries.embedQuery(query);
  }

  @Override
  public int dimension() {
    return queries.dimension();
  }

  @Override
  public String modelId() {
    return "refusing-stub";
  }
}
