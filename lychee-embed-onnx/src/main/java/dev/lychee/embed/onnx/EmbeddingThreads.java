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
 * seconds. Batches run through one shared {@link BatchScheduler}, so background batches give way to
 * foreground ones whichever embedder instance issued them.
 */
final class EmbeddingThreads {
  private static final int SIZE = Math.max(1, Runtime.getRuntime().availableProcessors());
  private static final Executor SHARED = create();
  /**
   * How long a background batch waits for foreground batches before it takes one text anyway:
   * long enough to cover an {@code append}'s batch on a busy machine, short enough that endless
   * foreground traffic still lets background encoding move (docs/defaults.md §7).
   */
  static final long MAX_BACKGROUND_WAIT_MS = 200;
  /**
   * How long after a caller's batch the background texts keep to {@code
   * OnnxEmbedderConfig.backgroundThreads}: longer than the gap between the appends of a burst and
   * between an append and a recall that follows it, short enough that the background work a burst
   * leaves behind soon has every core (docs/defaults.md §7, round eighteen).
   */
  static final long CALLER_WINDOW_MS = 1000;
  private static final BatchScheduler SCHEDULER =
      new BatchScheduler(SHARED, SIZE, TimeUnit.MILLISECONDS.toNanos(MAX_BACKGROUND_WAIT_MS),
          TimeUnit.MILLISECONDS.toNanos(CALLER_WINDOW_MS), System::nanoTime);

  private EmbeddingThreads() {}

  /** Threads in the pool: one per core. */
  static int size() {
    return SIZE;
  }

  static Executor shared() {
    return SHARED;
  }

  /** The scheduler every embedder on this pool shares, so foreground batches of any embedder come first. */
  static BatchScheduler scheduler() {
    return SCHEDULER;
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
