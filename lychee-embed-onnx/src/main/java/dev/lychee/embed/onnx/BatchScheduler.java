package dev.lychee.embed.onnx;

import dev.lychee.api.spi.EmbeddingPriority;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Runs the texts of a batch in parallel, one text per model call, and lets background batches give
 * way to foreground ones ({@link EmbeddingPriority}).
 *
 * <p><b>Parallel texts.</b> The calling thread takes texts, longest first, from a shared counter until
 * none is left; up to {@code parallelism - 1} helpers from a shared pool do the same, and the
 * caller then waits only for texts a helper has already taken. A helper that starts after the batch
 * is done finds nothing left and returns, so no caller waits behind other batches queued in the
 * pool. Longest first: a text's time grows with its length, and the last text taken decides when
 * the batch ends, so a long text left for the end keeps one core busy while the others idle
 * (docs/defaults.md §7). Results come back in the caller's order.
 *
 * <p><b>Foreground first.</b> While any foreground batch runs, no background batch starts a new
 * text: its helpers return to the pool (leaving their threads to the foreground batch's helpers)
 * and its calling thread waits, then takes the rest and calls helpers again. A text already in the
 * model runs to its end (a model call cannot be cut), so a foreground batch meets at most one
 * background text per thread, finishing. Without this, on a machine with few cores the background
 * encoder's record and node embeddings run beside an {@code append}'s turn and exchange
 * embeddings and slow them down by the number of threads sharing each core. To bound the delay of
 * background work under endless foreground traffic, a waiting background caller takes one text
 * anyway after {@code maxBackgroundWait}.
 *
 * <p><b>A core kept for callers.</b> Background texts take a slot before they enter the model, and
 * at most {@code backgroundThreads} (a batch's own limit, {@code OnnxEmbedderConfig}) are in it at
 * once, whichever batch or thread runs them: a helper that finds no slot returns, a calling thread
 * waits for one. Foreground first alone did not keep the caller's texts apart: several background
 * callers (segmentation lanes, encoding threads) each run a text beside their helpers, and a
 * foreground text meets the ones already started. Measured in round eighteen (measurements §6):
 * with one background text at most on 2 cores, an {@code append}'s turn met at most one background
 * text instead of three or more at the median. The limit holds while callers are about: while a
 * foreground batch runs and for {@code callerWindow} after one started or ended. Past that,
 * background texts may use every thread again, so the work a burst of appends leaves behind drains
 * on every core instead of one fewer (on the memory store that work took 7 to 9 s with the limit
 * always on, against 2 to 3 s without it, at load 27).
 *
 * <p>One instance per JVM shares the gate between every embedder on the same model and pool;
 * thread-safe.
 */
final class BatchScheduler {
  private final Executor helpers;
  private final int parallelism;
  private final long maxBackgroundWaitNanos;
  /** How long after a foreground batch the background limit still holds. */
  private final long callerWindowNanos;
  /** When a foreground batch last started or ended ({@link System#nanoTime}). */
  private volatile long lastForeground;
  /** {@link System#nanoTime}, or a test's clock. */
  private final LongSupplier clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition clear = lock.newCondition();
  /** Foreground batches running; read without the lock by background helpers. */
  private final AtomicInteger foreground = new AtomicInteger();
  /** Background texts in the model, of every batch; a slot is taken before a text starts. */
  private final AtomicInteger background = new AtomicInteger();
  /** Written under the lock, read without it when a slot is released. */
  private volatile int waitingBackground;

  /**
   * @param helpers the pool helpers run on
   * @param parallelism threads per batch, the caller included ({@code >= 1})
   * @param maxBackgroundWaitNanos how long a background caller waits for foreground batches before
   *     it takes one text anyway
   */
  BatchScheduler(Executor helpers, int parallelism, long maxBackgroundWaitNanos) {
    this(helpers, parallelism, maxBackgroundWaitNanos, Long.MAX_VALUE, System::nanoTime);
  }

  /**
   * @param helpers the pool helpers run on
   * @param parallelism threads per batch, the caller included ({@code >= 1})
   * @param maxBackgroundWaitNanos how long a background caller waits for foreground batches before
   *     it takes one text anyway
   * @param callerWindowNanos how long after a foreground batch started or ended a background
   *     batch's own limit on background texts still holds; after that, with no caller about,
   *     background texts may use every thread ({@code Long.MAX_VALUE}: the limit always holds)
   * @param clock nanoseconds, {@link System#nanoTime} but in tests
   */
  BatchScheduler(Executor helpers, int parallelism, long maxBackgroundWaitNanos, long callerWindowNanos,
      LongSupplier clock) {
    this.callerWindowNanos = callerWindowNanos;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lastForeground = clock.getAsLong();
    this.helpers = Objects.requireNonNull(helpers, "helpers");
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, was " + parallelism);
    }
    this.parallelism = parallelism;
    this.maxBackgroundWaitNanos = maxBackgroundWaitNanos;
  }

  /**
   * Embeds every text with {@code embedOne}, in parallel, foreground batches first, with no limit on
   * background texts beyond the threads per batch (for tests).
   */
  float[][] run(List<String> texts, EmbeddingPriority priority, Function<String, float[]> embedOne)
      throws InterruptedException {
    return run(texts, priority, Integer.MAX_VALUE, embedOne);
  }

  /**
   * Embeds every text with {@code embedOne}, in parallel, foreground batches first.
   *
   * @param backgroundThreads for a background batch: it starts a text only while fewer than this
   *     many background texts (of any batch on this scheduler) are in the model ({@code >= 1});
   *     ignored for a foreground batch
   * @return one result per text, in input order
   * @throws RuntimeException the first failure of {@code embedOne}, after which no further text is
   *     started
   * @throws InterruptedException when the caller is interrupted while it waits
   */
  float[][] run(List<String> texts, EmbeddingPriority priority, int backgroundThreads,
      Function<String, float[]> embedOne) throws InterruptedException {
    boolean fg = Objects.requireNonNull(priority, "priority") == EmbeddingPriority.FOREGROUND;
    if (backgroundThreads < 1) {
      throw new IllegalArgumentException("backgroundThreads must be >= 1, was " + backgroundThreads);
    }
    Batch batch = new Batch(texts, embedOne, fg, backgroundThreads);
    if (fg) {
      foreground.incrementAndGet();
      lastForeground = clock.getAsLong();
    }
    try {
      batch.callHelpers();
      batch.work(true);
      batch.done.await();
    } finally {
      if (fg) {
        lastForeground = clock.getAsLong();
        if (foreground.decrementAndGet() == 0) {
          signalWaiting();
        }
      }
    }
    RuntimeException failed = batch.failure.get();
    if (failed != null) {
      throw failed;
    }
    return batch.out;
  }

  /** Background callers waiting for foreground batches to end or for a background slot right now (for tests). */
  int waitingBackground() {
    return waitingBackground;
  }

  /** Foreground batches running right now (for tests). */
  int runningForeground() {
    return foreground.get();
  }

  /** Background texts in the model right now (for tests). */
  int runningBackground() {
    return background.get();
  }

  private void signalWaiting() {
    lock.lock();
    try {
      clear.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The background texts a batch with {@code limit} may have in the model now: its limit while
   * callers are about (a foreground batch runs, or one started or ended within the caller window),
   * no limit otherwise, so that background work left after a burst of calls drains on every core.
   */
  private int effectiveLimit(int limit) {
    boolean callers = foreground.get() > 0 || clock.getAsLong() - lastForeground < callerWindowNanos;
    return callers ? limit : Integer.MAX_VALUE;
  }

  /** Takes a background slot if fewer than the batch's limit of background texts are in the model. */
  private boolean takeSlot(int limit) {
    int effective = effectiveLimit(limit);
    while (true) {
      int running = background.get();
      if (running >= effective) {
        return false;
      }
      if (background.compareAndSet(running, running + 1)) {
        return true;
      }
    }
  }

  /** A background text left the model (or a slot went unused): a waiting background caller may go on. */
  private void releaseSlot() {
    background.decrementAndGet();
    // a waiter counts itself before it tries a slot, so either it sees this release or it is signalled
    if (waitingBackground > 0) {
      signalWaiting();
    }
  }

  /**
   * Waits until no foreground batch runs (at most {@link #maxBackgroundWaitNanos}) and a background
   * slot is free, and takes the slot.
   *
   * @return whether it waited at all
   */
  private boolean awaitTurn(int limit) throws InterruptedException {
    if (foreground.get() == 0 && takeSlot(limit)) {
      return false;
    }
    lock.lock();
    try {
      waitingBackground++;
      try {
        long fgWait = maxBackgroundWaitNanos;
        while (true) {
          if (foreground.get() > 0 && fgWait > 0) {
            fgWait = clear.awaitNanos(fgWait);
          } else if (takeSlot(limit)) {
            return true;
          } else {
            clear.await(); // a background text ends and signals
          }
        }
      } finally {
        waitingBackground--;
      }
    } finally {
      lock.unlock();
    }
  }

  private final class Batch {
    final List<String> texts;
    final Function<String, float[]> embedOne;
    final boolean foregroundBatch;
    /** Background texts in the model at most (of every batch), for a background batch. */
    final int backgroundLimit;
    final int n;
    final float[][] out;
    /** Positions of the texts, longest first (ties in input order). */
    final int[] order;
    final AtomicInteger next = new AtomicInteger();
    final CountDownLatch done;
    final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    Batch(List<String> texts, Function<String, float[]> embedOne, boolean foregroundBatch, int backgroundLimit) {
      this.texts = texts;
      this.embedOne = embedOne;
      this.foregroundBatch = foregroundBatch;
      this.backgroundLimit = backgroundLimit;
      this.n = texts.size();
      this.out = new float[n][];
      this.order = longestFirst(texts);
      this.done = new CountDownLatch(n);
    }

    void callHelpers() {
      int threads = foregroundBatch ? parallelism : Math.min(parallelism, effectiveLimit(backgroundLimit));
      int count = Math.min(n - next.get() - 1, threads - 1);
      for (int h = 0; h < count; h++) {
        helpers.execute(() -> {
          try {
            work(false);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // helpers never wait, so this does not happen
          }
        });
      }
    }

    void work(boolean caller) throws InterruptedException {
      while (true) {
        if (!foregroundBatch) {
          if (!caller) {
            if (foreground.get() > 0 || !takeSlot(backgroundLimit)) {
              // leave the pool thread to the foreground batch, or the core to a caller's texts to
              // come; the batch's calling thread takes the rest
              return;
            }
          } else if (awaitTurn(backgroundLimit)) {
            callHelpers();
          }
        }
        int k = next.getAndIncrement();
        if (k >= n) {
          if (!foregroundBatch) {
            releaseSlot();
          }
          return;
        }
        int i = order[k];
        try {
          if (failure.get() == null) {
            out[i] = embedOne.apply(texts.get(i));
          }
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        } finally {
          if (!foregroundBatch) {
            releaseSlot();
          }
          done.countDown();
        }
      }
    }
  }

  /** Positions of {@code texts} by length, longest first; equal lengths keep their input order. */
  static int[] longestFirst(List<String> texts) {
    int n = texts.size();
    // sort (length, position) pairs packed in longs: no boxing, stable by position
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = ((long) (Integer.MAX_VALUE - texts.get(i).length()) << 32) | i;
    }
    Arrays.sort(keys);
    int[] order = new int[n];
    for (int k = 0; k < n; k++) {
      order[k] = (int) keys[k];
    }
    return order;
  }
}
