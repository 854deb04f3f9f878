package dev.lychee.core.ingest;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingPriority;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Embeds an {@code append}'s turn texts on a thread of its own while the caller's thread stores
 * the turns, so that the caller waits for the longer of the two instead of their sum. A durable
 * store's turn write is mostly waiting for its sync (SQLite's WAL {@code fsync}: about 4 ms on the
 * 2-core machine of docs/measurements.md §6, against 6 to 7 ms for one document embedding), which
 * leaves the cores free for the model. Only the texts depend on the turns' content, never on the
 * indices the store assigns, so the vectors fit whatever the store kept; a text the store did not
 * keep (a turn already stored) costs an embedding and nothing else, and a stored text that was not
 * embedded ahead (not expected) is embedded afterwards. docs/defaults.md §3.3.
 *
 * <p>At most {@code threads} daemon threads, none kept while idle, and no queue: an append that
 * finds them all busy embeds on its own thread before storing, which is as fast as the order
 * before (store, then embed) and safe, because an embedding is no LLM call and stores nothing.
 */
final class TurnEmbeddingsAhead implements AutoCloseable {
  private final Embedder embedder;
  private final ThreadPoolExecutor pool;

  TurnEmbeddingsAhead(Embedder embedder, int threads) {
    this.embedder = embedder;
    this.pool = new ThreadPoolExecutor(threads, threads, 5, TimeUnit.SECONDS, new SynchronousQueue<>(),
        WorkerPools.daemons("lychee-turn-embed-"), (task, executor) -> task.run());
    pool.allowCoreThreadTimeOut(true);
  }

  /**
   * The embedding of {@code texts}, started now, as one batch in their order: the batch the caller
   * would have embedded after storing when the store keeps every turn, so the vectors are the same.
   */
  Pending start(List<String> texts) {
    List<String> batch = List.copyOf(texts);
    Future<List<float[]>> f = pool.submit(() -> embedder.embedDocuments(batch, EmbeddingPriority.FOREGROUND));
    return new Pending(batch, f);
  }

  /** Stops the threads; a later {@link #start} runs on the caller's thread. */
  @Override
  public void close() {
    pool.shutdown();
  }

  /** Vectors on their way for some texts. */
  final class Pending {
    private final List<String> texts;
    private final Future<List<float[]>> vectors;

    private Pending(List<String> texts, Future<List<float[]>> vectors) {
      this.texts = texts;
      this.vectors = vectors;
    }

    /**
     * The vectors of {@code wanted}, in its order: those embedded ahead, and any other text embedded
     * now. Rethrows the embedding's failure as it would have been thrown by an embedding here.
     */
    List<float[]> vectorsOf(List<String> wanted) {
      Map<String, float[]> byText = new HashMap<>();
      List<float[]> ahead = await();
      for (int i = 0; i < texts.size(); i++) {
        byText.put(texts.get(i), ahead.get(i));
      }
      List<String> missing = wanted.stream().filter(t -> !byText.containsKey(t)).distinct().toList();
      if (!missing.isEmpty()) {
        List<float[]> late = embedder.embedDocuments(missing, EmbeddingPriority.FOREGROUND);
        for (int i = 0; i < missing.size(); i++) {
          byText.put(missing.get(i), late.get(i));
        }
      }
      List<float[]> out = new ArrayList<>(wanted.size());
      wanted.forEach(t -> out.add(byText.get(t)));
      return out;
    }

    /** Waits for the embedding to end, whatever its outcome (nothing is left running behind a call). */
    void discard() {
      try {
        await();
      } catch (RuntimeException | Error ignored) {
        // the append failed before its turns were stored; the embedding's own failure adds nothing
      }
    }

    private List<float[]> await() {
      boolean interrupted = false;
      try {
        while (true) {
          try {
            return vectors.get();
          } catch (InterruptedException e) {
            // the turns are stored by now: finish the call and keep the interrupt for the caller
            interrupted = true;
          } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
              throw r;
            }
            if (cause instanceof Error err) {
              throw err;
            }
            throw new IllegalStateException("embedding the turns failed", cause);
          }
        }
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
