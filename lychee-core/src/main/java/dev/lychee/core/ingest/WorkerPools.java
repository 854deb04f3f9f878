package dev.lychee.core.ingest;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How the write path's background pools ({@link EncodeQueue}, {@link SegmentationLanes}) start and
 * stop: daemon threads, so a caller that forgets {@code close} does not keep the JVM alive, and a
 * stop that lets the work in progress end within a bound. Either pool's work is safe to cut: turns
 * and PENDING segments are stored before any of it runs.
 */
final class WorkerPools {
  /** How long {@link #stop} lets the work in progress run before interrupting it. */
  private static final long STOP_WAIT_SECONDS = 60;

  private WorkerPools() {}

  /** Daemon threads named {@code prefix} plus a running number ("lychee-encoder-1"). */
  static ThreadFactory daemons(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Stops taking work, waits (bounded) for what runs and is queued, then interrupts what is left. */
  static void stop(ExecutorService pool) {
    pool.shutdown();
    try {
      if (!pool.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
