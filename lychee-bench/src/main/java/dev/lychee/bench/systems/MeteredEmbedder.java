package dev.lychee.bench.systems;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the texts a system hands its embedder and the time spent inside the embedder, so that
 * a timing run can say how many embeddings an ingest cost and what share of it the model took.
 * Changes nothing it passes through. Thread-safe; time is summed over every calling thread, so with
 * several threads embedding at once it can exceed the wall time.
 */
public final class MeteredEmbedder extends EmbedderDecorator {
  private final LongAdder documents = new LongAdder();
  private final LongAdder queries = new LongAdder();
  private final LongAdder calls = new LongAdder();
  private final LongAdder nanos = new LongAdder();

  /**
   * What was embedded since the last {@link #reset()}.
   *
   * @param calls embedder calls (one batch of documents or queries is one call)
   * @param documents document texts embedded
   * @param queries query texts embedded
   * @param nanos time inside the embedder, summed over the calling threads
   */
  public record Use(long calls, long documents, long queries, long nanos) {
    /** Every text embedded, documents and queries. */
    public long texts() {
      return documents + queries;
    }

    /** The time inside the embedder as a share of {@code wallNanos}. */
    public double shareOf(long wallNanos) {
      return wallNanos <= 0 ? Double.NaN : nanos / (double) wallNanos;
    }
  }

  public MeteredEmbedder(Embedder delegate) {
    super(delegate);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    long t0 = System.nanoTime();
    try {
      return delegate.embedDocuments(texts);
    } finally {
      count(t0, texts == null ? 0 : texts.size(), documents);
    }
  }

  /** Passes the priority hint on, so a metered embedder schedules as the bare one does. */
  @Override
  public List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
    long t0 = System.nanoTime();
    try {
      return delegate.embedDocuments(texts, priority);
    } finally {
      count(t0, texts == null ? 0 : texts.size(), documents);
    }
  }

  @Override
  public float[] embedQuery(String query) {
    long t0 = System.nanoTime();
    try {
      return delegate.embedQuery(query);
    } finally {
      count(t0, 1, queries);
    }
  }

  @Override
  public List<float[]> embedQueries(List<String> batch) {
    long t0 = System.nanoTime();
    try {
      return delegate.embedQueries(batch);
    } finally {
      count(t0, batch == null ? 0 : batch.size(), queries);
    }
  }

  private void count(long t0, int texts, LongAdder kind) {
    nanos.add(System.nanoTime() - t0);
    calls.increment();
    kind.add(texts);
  }

  /** What was embedded since creation or the last {@link #reset()}. */
  public Use use() {
    return new Use(calls.sum(), documents.sum(), queries.sum(), nanos.sum());
  }

  /** Starts counting afresh. */
  public void reset() {
    calls.reset();
    documents.reset();
    queries.reset();
    nanos.reset();
  }
}
