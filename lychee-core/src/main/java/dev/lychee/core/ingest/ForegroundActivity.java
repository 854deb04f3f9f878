package dev.lychee.core.ingest;

import java.time.Duration;

/**
 * Counts the {@code append} calls in progress, so that background encoding can step aside while a
 * caller waits. The background encoder asks {@link #awaitQuiet} before each of its steps (the
 * encoder call, organising and embedding, the commit): on a machine with few cores its Java work
 * otherwise shares them with the append's embedding, and the append's latency is what a caller
 * sees (docs/defaults.md §7; off by default, since no gain was measured). The wait is bounded, so endless appends slow background encoding
 * but cannot stall it. Thread-safe.
 */
final class ForegroundActivity {
  private final long maxWaitNanos;
  private int active;

  /** @param maxWait how long one background step waits at most for appends to finish */
  ForegroundActivity(Duration maxWait) {
    this.maxWaitNanos = maxWait.toNanos();
  }

  /** An append starts. */
  synchronized void enter() {
    active++;
  }

  /** An append ends. */
  synchronized void exit() {
    active--;
    if (active == 0) {
      notifyAll();
    }
  }

  /** Appends in progress now. */
  synchronized int active() {
    return active;
  }

  /**
   * Waits until no append is in progress, or the bounded wait has passed.
   *
   * @return true when no append was in progress at the end
   */
  boolean awaitQuiet() {
    return maxWaitNanos == 0 || waitQuiet();
  }

  private synchronized boolean waitQuiet() {
    long deadline = System.nanoTime() + maxWaitNanos;
    try {
      while (active > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      // the queue is closing: go on, the step itself sees the interrupt
      Thread.currentThread().interrupt();
      return false;
    }
    return true;
  }
}
