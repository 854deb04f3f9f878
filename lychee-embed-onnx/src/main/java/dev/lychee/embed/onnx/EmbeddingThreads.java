package dev.lychee.embed.onnx;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The helper threads that encode texts of a batch beside the calling thread. One pool per JVM,
 * one thread per core, shared by every {@link OnnxEmbedder} (the model itself is shared too):
 * daemon threads, so an embedder never keeps the JVM alive, and idle ones time out after a few
 * seconds.
 */
final class EmbeddingThreads {
  private static final int SIZE = Math.max(1, Runtime.getRuntime().availableProcessors());
  private static final Executor SHARED = create();

  private EmbeddingThreads() {}

  /** Threads in the pool: one per core. */
  static int size() {
    return SIZE;
  }

  static Executor shared() {
    return SHARED;
  }

  private static Executor create() {
    int n = SIZE;
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            n,
            n,
            5,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "lychee-onnx-embed-" + count.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
