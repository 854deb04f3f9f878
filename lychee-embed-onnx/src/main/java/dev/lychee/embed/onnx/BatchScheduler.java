package dev.lychee.embed.onnx;

import dev.lychee.api.spi.EmbeddingPriority;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Runs the texts of a batch in parallel, one text per model call, and lets background batches give
 * way to foreground ones ({@link EmbeddingPriority}).
 *
 * <p><b>Parallel texts.</b> The calling thread takes texts, longest first, from a shared counter
 * until none is left; up to {@code parallelism - 1} helpers from a shared pool do the same, and the
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
 * <p><b>Stopping background texts</b> (an option, off by default). With {@code stopBackground},
 * a foreground batch that arrives also stops the background texts already in the model ({@link
 * Stop}; ONNX Runtime's terminate flag, checked between graph nodes): they give their cores back at
 * once and run again from the start once the foreground is gone. Only the partial work is lost, and
 * vectors never depend on it. A text let through by the wait bound is never stopped, so background
 * work still moves under endless foreground traffic (docs/defaults.md §7).
 *
 * <p>One instance per JVM shares the gate between every embedder on the same model and pool;
 * thread-safe.
 */
final class BatchScheduler {
  private final Executor helpers;
  private final int parallelism;
  private final long maxBackgroundWaitNanos;
  private final boolean stopBackground;
  /** Background texts in the model that a foreground batch may stop. */
  private final Set<Stop> stoppable = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition clear = lock.newCondition();
  /** Foreground batches running; read without the lock by background helpers. */
  private final AtomicInteger foreground = new AtomicInteger();
  private int waitingBackground;

  /**
   * @param helpers the pool helpers run on
   * @param parallelism threads per batch, the caller included ({@code >= 1})
   * @param maxBackgroundWaitNanos how long a background caller waits for foreground batches before
   *     it takes one text anyway
   */
  BatchScheduler(Executor helpers, int parallelism, long maxBackgroundWaitNanos) {
    this(helpers, parallelism, maxBackgroundWaitNanos, false);
  }

  /**
   * @param stopBackground whether a foreground batch stops the background texts in the model
   *     (they run again later)
   */
  BatchScheduler(Executor helpers, int parallelism, long maxBackgroundWaitNanos, boolean stopBackground) {
    this.helpers = Objects.requireNonNull(helpers, "helpers");
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be >= 1, was " + parallelism);
    }
    this.parallelism = parallelism;
    this.maxBackgroundWaitNanos = maxBackgroundWaitNanos;
    this.stopBackground = stopBackground;
  }

  /** A model that can be stopped in the middle of a text ({@link Stop}). */
  interface Model {
    /**
     * The vector of one text.
     *
     * @param stop null when the call must run to its end; otherwise the call registers how to stop
     *     it with {@link Stop#onStop} and throws {@link Stopped} when it was stopped
     */
    float[] embed(String text, Stop stop);
  }

  /** Stops one background text in the model; thread-safe. */
  static final class Stop {
    private Runnable action;
    private boolean stopped;

    /** Registers how to stop the call; runs it at once when the stop came first. */
    synchronized void onStop(Runnable stopAction) {
      if (stopped) {
        stopAction.run();
      } else {
        action = stopAction;
      }
    }

    /** Forgets the registered action (before what it stops goes away); waits for one running. */
    synchronized void clear() {
      action = null;
    }

    synchronized boolean stopped() {
      return stopped;
    }

    synchronized void stop() {
      if (!stopped) {
        stopped = true;
        if (action != null) {
          action.run();
        }
      }
    }
  }

  /** Thrown by a {@link Model} call that its {@link Stop} ended; the text is run again later. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("stopped for a foreground batch", null, false, false);
    }
  }

  /**
   * Embeds every text with {@code embedOne}, in parallel, foreground batches first.
   *
   * @return one result per text, in input order
   * @throws RuntimeException the first failure of {@code embedOne}, after which no further text is
   *     started
   * @throws InterruptedException when the caller is interrupted while it waits
   */
  float[][] run(List<String> texts, EmbeddingPriority priority, Function<String, float[]> embedOne)
      throws InterruptedException {
    Objects.requireNonNull(embedOne, "embedOne");
    return run(texts, priority, (text, stop) -> embedOne.apply(text));
  }

  /**
   * Embeds every text with {@code model}, in parallel, foreground batches first; background texts
   * may be stopped and run again (when the scheduler was built with {@code stopBackground}).
   *
   * @return one result per text, in input order
   */
  float[][] run(List<String> texts, EmbeddingPriority priority, Model model) throws InterruptedException {
    boolean fg = Objects.requireNonNull(priority, "priority") == EmbeddingPriority.FOREGROUND;
    Batch batch = new Batch(texts, Objects.requireNonNull(model, "model"), fg);
    if (fg) {
      foreground.incrementAndGet();
      if (stopBackground) {
        stoppable.forEach(Stop::stop);
      }
    }
    try {
      batch.callHelpers();
      batch.work(true);
      if (fg || !stopBackground) {
        batch.done.await();
      } else {
        // a helper whose text was stopped hands the text back and leaves: take it up here
        while (!batch.done.await(2, TimeUnit.MILLISECONDS)) {
          batch.work(true);
        }
      }
    } finally {
      if (fg && foreground.decrementAndGet() == 0) {
        lock.lock();
        try {
          clear.signalAll();
        } finally {
          lock.unlock();
        }
      }
    }
    RuntimeException failed = batch.failure.get();
    if (failed != null) {
      throw failed;
    }
    return batch.out;
  }

  /** Background callers waiting for foreground batches to end right now (for tests). */
  int waitingBackground() {
    lock.lock();
    try {
      return waitingBackground;
    } finally {
      lock.unlock();
    }
  }

  /** Foreground batches running right now (for tests). */
  int runningForeground() {
    return foreground.get();
  }

  /**
   * Waits until no foreground batch runs, at most {@link #maxBackgroundWaitNanos}.
   *
   * @return whether it waited at all
   */
  private boolean awaitNoForeground() throws InterruptedException {
    if (foreground.get() == 0) {
      return false;
    }
    lock.lock();
    try {
      long nanos = maxBackgroundWaitNanos;
      waitingBackground++;
      try {
        while (foreground.get() > 0 && nanos > 0) {
          nanos = clear.awaitNanos(nanos);
        }
      } finally {
        waitingBackground--;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private final class Batch {
    final List<String> texts;
    final Model model;
    final boolean foregroundBatch;
    final int n;
    final float[][] out;
    /** Positions of the texts, longest first (ties in input order). */
    final int[] order;
    final AtomicInteger next = new AtomicInteger();
    /** Positions of stopped texts, to run again before new ones. */
    final ConcurrentLinkedQueue<Integer> again = new ConcurrentLinkedQueue<>();
    final CountDownLatch done;
    final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    Batch(List<String> texts, Model model, boolean foregroundBatch) {
      this.texts = texts;
      this.model = model;
      this.foregroundBatch = foregroundBatch;
      this.n = texts.size();
      this.out = new float[n][];
      this.order = longestFirst(texts);
      this.done = new CountDownLatch(n);
    }

    void callHelpers() {
      int count = Math.min(n - next.get() - 1, parallelism - 1);
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
        // a text taken while foreground batches still run (after the bounded wait) is not stopped
        boolean mayStop = stopBackground && !foregroundBatch;
        if (!foregroundBatch && foreground.get() > 0) {
          if (!caller) {
            return; // leave the pool thread to the foreground batch; the caller takes the rest
          }
          if (awaitNoForeground()) {
            callHelpers();
          }
          mayStop &= foreground.get() == 0;
        }
        Integer retry = again.poll();
        int i;
        if (retry != null) {
          i = retry;
        } else {
          int k = next.getAndIncrement();
          if (k >= n) {
            return;
          }
          i = order[k];
        }
        Stop stop = mayStop ? new Stop() : null;
        boolean finished = true;
        try {
          if (failure.get() == null) {
            if (stop != null) {
              stoppable.add(stop);
            }
            out[i] = model.embed(texts.get(i), stop);
          }
        } catch (Stopped e) {
          finished = false;
          again.add(i);
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        } finally {
          if (stop != null) {
            stoppable.remove(stop);
          }
          if (finished) {
            done.countDown();
          }
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
