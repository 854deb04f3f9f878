package dev.lychee.bench.systems;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Remembers the vectors of texts it has embedded, so that several systems of one run (dense,
 * hybrid, lychee) pay for each turn and each question once. Vectors are deterministic per text
 * (Embedder contract), so caching changes no result. Thread-safe.
 */
public final class CachingEmbedder extends EmbedderDecorator {
  private final Map<String, float[]> documents = new HashMap<>();
  private final Map<String, float[]> queries = new HashMap<>();

  public CachingEmbedder(Embedder delegate) {
    super(delegate);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    return embedDocuments(texts, EmbeddingPriority.FOREGROUND);
  }

  /** Embeds the texts not cached yet with the given priority hint. */
  @Override
  public synchronized List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
    List<String> missing = texts.stream().filter(t -> !documents.containsKey(t)).distinct().toList();
    if (!missing.isEmpty()) {
      List<float[]> vectors = delegate.embedDocuments(missing, priority);
      for (int i = 0; i < missing.size(); i++) {
        documents.put(missing.get(i), vectors.get(i));
      }
    }
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(documents.get(t).clone());
    }
    return out;
  }

  @Override
  public synchronized float[] embedQuery(String query) {
    return queries.computeIfAbsent(query, delegate::embedQuery).clone();
  }

  /** Drops every cached vector (between conversations, to bound memory). */
  public synchronized void clear() {
    documents.clear();
    queries.clear();
  }
}
