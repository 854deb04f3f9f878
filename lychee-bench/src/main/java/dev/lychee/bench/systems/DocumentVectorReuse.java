package dev.lychee.bench.systems;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbedderDecorator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Serves a document text's vector from the first time it was embedded, so that a speed run at a
 * large scale factor pays the embedder for one copy of the conversation only (the copies repeat
 * the same texts). Queries are never cached: every recall still embeds its question fresh, so
 * recall latency stays comparable with an uncached run. Ingest rates measured through it are not
 * ingest rates and must not be reported as such. Thread-safe.
 */
public final class DocumentVectorReuse extends EmbedderDecorator {
  private final Map<String, float[]> documents = new HashMap<>();

  public DocumentVectorReuse(Embedder delegate) {
    super(delegate);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<String> missing;
    synchronized (this) {
      missing = texts.stream().filter(t -> !documents.containsKey(t)).distinct().toList();
    }
    // embedded outside the lock, so that concurrent ingest threads still reach the model together
    List<float[]> vectors = missing.isEmpty() ? List.of() : delegate.embedDocuments(missing);
    synchronized (this) {
      for (int i = 0; i < missing.size(); i++) {
        documents.putIfAbsent(missing.get(i), vectors.get(i));
      }
      List<float[]> out = new ArrayList<>(texts.size());
      for (String t : texts) {
        out.add(documents.get(t).clone());
      }
      return out;
    }
  }

  @Override
  public float[] embedQuery(String query) {
    return delegate.embedQuery(query);
  }

  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return delegate.embedQueries(queries);
  }

  /** Drops every kept vector, so that the heap measured afterwards holds only the system's. */
  public synchronized void clear() {
    documents.clear();
  }
}
