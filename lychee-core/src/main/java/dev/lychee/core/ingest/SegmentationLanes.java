package dev.lychee.core.ingest;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Segmentation off the caller's thread ({@link IngestConfig#segmentInBackground()}): per (namespace,
 * session) a lane that runs the session's segmentation step, one step of a session at a time, lanes
 * in parallel up to the pool size. The step segments every stored turn its session's segmenter has
 * not seen, so requests are merged: a request while a step waits to start adds nothing, a request
 * while a step runs makes one more step run after it. Thread-safe.
 *
 * <p>Nothing here is durable, nor needs to be: the turns are stored before a step is requested, and
 * a session's segmenter starts again after its last stored segment when the process restarts.
 */
final class SegmentationLanes implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentationLanes.class);

  private enum State { QUEUED, RUNNING, RUNNING_AGAIN }

  private final Consumer<SessionKey> step;
  private final ExecutorService pool;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<SessionKey, State> lanes = new HashMap<>();
  private boolean closing;

  /**
   * @param threads lanes that run at once
   * @param step segments one session's stored turns that are not segmented yet; never throws (a
   *     throw is logged, and the session is segmented at its next step)
   */
  SegmentationLanes(int threads, Consumer<SessionKey> step) {
    this.step = step;
    this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
        WorkerPools.daemons("lychee-segmenter-"));
  }

  /**
   * Asks for a segmentation step of the session. After {@link #close} nothing runs: the stored turns
   * are segmented at the session's next append or flush, or after a restart.
   */
  void request(SessionKey key) {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      State s = lanes.get(key);
      if (s == null) {
        lanes.put(key, State.QUEUED);
        pool.execute(() -> run(key));
      } else if (s == State.RUNNING) {
        lanes.put(key, State.RUNNING_AGAIN);
      }
    } finally {
      lock.unlock();
    }
  }

  private void run(SessionKey key) {
    while (true) {
      lock.lock();
      try {
        lanes.put(key, State.RUNNING);
      } finally {
        lock.unlock();
      }
      try {
        step.accept(key);
      } catch (RuntimeException | Error e) {
        LOG.warn("background segmentation of session '{}' failed; its turns are stored and are segmented at its "
            + "next append or flush", key.session(), e);
      }
      lock.lock();
      try {
        if (lanes.get(key) != State.RUNNING_AGAIN) {
          lanes.remove(key);
          changed.signalAll();
          return;
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Waits until no lane whose key matches is queued or running.
   *
   * @return true when idle, false when the timeout passed first
   */
  boolean awaitIdle(Predicate<SessionKey> which, Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lock();
    try {
      while (lanes.keySet().stream().anyMatch(which)) {
        if (nanos <= 0) {
          return false;
        }
        nanos = changed.awaitNanos(nanos);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Runs the steps already requested (bounded), then stops; later requests are ignored. */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
    } finally {
      lock.unlock();
    }
    WorkerPools.stop(pool);
  }
}
