package dev.lychee.core.ingest;

import dev.lychee.api.QueueFullException;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.EmbeddingPriority;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background encoder: a bounded queue of closed, durably PENDING segments and a fixed pool of
 * threads that encodes them. Each (namespace, session) is a lane drained by at most one thread at
 * a time, strictly in the order its segments were queued; lanes run in parallel up to the pool
 * size. A failed attempt is retried after a backoff; when a segment's attempts are used up (or the
 * failure cannot be helped by retrying) the lane stops: that segment and the ones queued behind it
 * stay PENDING, so no later segment of the session is encoded before an earlier one. The next
 * segment queued for that session, {@code encodePending} or the next open starts it again.
 *
 * <p>Capacity is checked when a call is admitted ({@link #admit}), before it stores anything, so a
 * refusal leaves nothing behind; the segments an admitted call closes are always queued.
 */
final class EncodeQueue implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EncodeQueue.class);
  private final IngestConfig config;
  private final EncodeRunner runner;
  private final Function<SessionKey, List<Segment>> pendingOfSession;
  private final Clock clock;
  private final ScheduledThreadPoolExecutor pool;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<SessionKey, Lane> lanes = new HashMap<>();
  private final Set<SessionKey> stopped = new HashSet<>();
  private final Map<String, Integer> perNamespace = new HashMap<>();
  private final FailureLog failures;
  private int total;
  private volatile boolean closing;

  private record Item(Segment segment, Instant queuedAt) {}

  private static final class Lane {
    final Deque<Item> items = new ArrayDeque<>();
    final Set<String> ids = new HashSet<>();
    boolean scheduled;
    boolean running;
  }

  /**
   * @param pendingOfSession the stored PENDING segments of a session, in order (to restart a
   *     stopped lane from its oldest segment)
   */
  EncodeQueue(IngestConfig config, EncodeRunner runner, Function<SessionKey, List<Segment>> pendingOfSession,
      FailureLog failures, Clock clock) {
    this.config = config;
    this.failures = failures;
    this.runner = runner;
    this.pendingOfSession = pendingOfSession;
    this.clock = clock;
    this.pool = new ScheduledThreadPoolExecutor(config.concurrency(), WorkerPools.daemons("lychee-encoder-"));
    pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /**
   * Waits for room in the queue (policy WAIT) or refuses at once (REJECT).
   *
   * @throws QueueFullException when the queue stays full
   */
  void admit() {
    lock.lock();
    try {
      if (total < config.queueCapacity()) {
        return;
      }
      if (config.whenFull() == IngestConfig.FullQueuePolicy.WAIT) {
        long nanos = config.fullQueueWait().toNanos();
        while (total >= config.queueCapacity() && nanos > 0 && !closing) {
          nanos = changed.awaitNanos(nanos);
        }
        if (total < config.queueCapacity()) {
          return;
        }
      }
      throw new QueueFullException("the encoding queue is full (" + total + " of " + config.queueCapacity()
          + " segments waiting" + (config.whenFull() == IngestConfig.FullQueuePolicy.WAIT
              ? ", waited " + config.fullQueueWait().toMillis() + " ms" : "")
          + "); nothing of this call was stored, retry it later", config.queueCapacity(), Duration.ofSeconds(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueFullException("interrupted while waiting for room in the encoding queue; nothing was stored",
          config.queueCapacity(), Duration.ofSeconds(1));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues segments (already stored as PENDING) behind the ones of their session. A segment that
   * is queued already is skipped. A stopped session is restarted from its oldest stored PENDING
   * segment, so order holds.
   *
   * @return how many segments were newly queued
   */
  int submit(List<Segment> segments) {
    int added = 0;
    for (Segment s : segments) {
      SessionKey key = new SessionKey(s.namespace(), s.session());
      boolean restart;
      lock.lock();
      try {
        restart = stopped.remove(key);
      } finally {
        lock.unlock();
      }
      if (restart) {
        for (Segment older : pendingOfSession.apply(key)) {
          added += enqueue(key, older);
        }
      }
      added += enqueue(key, s);
    }
    return added;
  }

  private int enqueue(SessionKey key, Segment s) {
    lock.lock();
    try {
      if (closing) {
        return 0;
      }
      Lane lane = lanes.computeIfAbsent(key, k -> new Lane());
      if (!lane.ids.add(s.id())) {
        return 0;
      }
      lane.items.addLast(new Item(s, clock.instant()));
      total++;
      perNamespace.merge(key.namespace(), 1, Integer::sum);
      if (!lane.scheduled) {
        lane.scheduled = true;
        pool.execute(() -> drain(key));
      }
      return 1;
    } finally {
      lock.unlock();
    }
  }

  private void drain(SessionKey key) {
    Item item;
    lock.lock();
    try {
      Lane lane = lanes.get(key);
      if (lane == null) {
        return;
      }
      item = lane.items.peekFirst();
      if (item == null || closing) {
        lane.scheduled = false;
        if (item == null) {
          lanes.remove(key);
        }
        changed.signalAll();
        return;
      }
      lane.running = true;
    } finally {
      lock.unlock();
    }
    EncodeRunner.Step step;
    try {
      // nobody waits for this segment: its embeddings give way to the callers' (docs/defaults.md §7)
      step = runner.once(item.segment(), EmbeddingPriority.BACKGROUND);
    } catch (RuntimeException | Error e) {
      SegmentFailure f = new SegmentFailure(key.namespace(), item.segment().id(), FailureKinds.kind(e),
          "unexpected failure while encoding segment " + item.segment().id() + ": " + e);
      step = new EncodeRunner.Step(IngestResult.failed(f), f, false, 1, false);
    }
    lock.lock();
    try {
      Lane lane = lanes.get(key);
      if (lane == null) {
        return; // purged while running
      }
      lane.running = false;
      if (step.failure() == null) {
        failures.forget(key.namespace(), item.segment().id());
        finish(key, lane, lane.items.pollFirst());
        schedule(key, lane, Duration.ZERO);
      } else {
        failures.remember(step.failure());
        if (runner.retry(step) && !closing) {
          schedule(key, lane, runner.backoff(step.attempts()));
        } else {
          // stop the lane: this segment and the ones behind it stay PENDING, in order
          while (!lane.items.isEmpty()) {
            finish(key, lane, lane.items.pollFirst());
          }
          lanes.remove(key);
          stopped.add(key);
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void schedule(SessionKey key, Lane lane, Duration delay) {
    if (lane.items.isEmpty() || closing) {
      lane.scheduled = false;
      if (lane.items.isEmpty()) {
        lanes.remove(key);
      }
      return;
    }
    if (delay.isZero()) {
      pool.execute(() -> drain(key));
    } else {
      pool.schedule(() -> drain(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void finish(SessionKey key, Lane lane, Item item) {
    if (item == null) {
      return;
    }
    lane.ids.remove(item.segment().id());
    total--;
    perNamespace.computeIfPresent(key.namespace(), (k, v) -> v <= 1 ? null : v - 1);
  }

  /**
   * Runs {@code task} on the pool every {@code period} until close; a failing run is logged and
   * the next one still comes.
   */
  void every(Duration period, Runnable task) {
    pool.scheduleWithFixedDelay(() -> {
      if (closing) {
        return;
      }
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.warn("background encoder: a periodic task failed, it runs again in " + period.toMillis() + " ms", e);
      }
    }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether a lane of this session is queued or running, or stopped after a failure. */
  boolean holds(SessionKey key) {
    lock.lock();
    try {
      return lanes.containsKey(key) || stopped.contains(key);
    } finally {
      lock.unlock();
    }
  }

  /** Segments queued or being encoded for a namespace. */
  int depth(String namespace) {
    lock.lock();
    try {
      return perNamespace.getOrDefault(namespace, 0);
    } finally {
      lock.unlock();
    }
  }

  /** Segments queued or being encoded, all namespaces. */
  int depth() {
    lock.lock();
    try {
      return total;
    } finally {
      lock.unlock();
    }
  }

  /** When the oldest segment still queued for the namespace was queued. */
  Optional<Instant> oldestQueued(String namespace) {
    lock.lock();
    try {
      return lanes.entrySet().stream().filter(e -> e.getKey().namespace().equals(namespace))
          .map(e -> e.getValue().items.peekFirst()).filter(java.util.Objects::nonNull)
          .map(Item::queuedAt).min(Instant::compareTo);
    } finally {
      lock.unlock();
    }
  }

  /** Sessions of the namespace whose lane stopped after a failure (their segments wait). */
  int stoppedSessions(String namespace) {
    lock.lock();
    try {
      return (int) stopped.stream().filter(k -> k.namespace().equals(namespace)).count();
    } finally {
      lock.unlock();
    }
  }

  /** Clears the stopped mark of a namespace's sessions ({@code encodePending} requeues them). */
  void clearStopped(String namespace) {
    lock.lock();
    try {
      stopped.removeIf(k -> k.namespace().equals(namespace));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until nothing of the namespace (or of any namespace, when null) is queued or running.
   *
   * @return true when idle, false when the timeout passed first
   */
  boolean awaitIdle(String namespace, Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lock();
    try {
      while (namespace == null ? total > 0 : perNamespace.getOrDefault(namespace, 0) > 0) {
        if (nanos <= 0 || closing) {
          return false;
        }
        nanos = changed.awaitNanos(nanos);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops the queued segments of a namespace (session null) or one session, and waits (bounded) for
   * an attempt in progress there to end, so nothing is committed for it afterwards.
   */
  void purge(String namespace, String session) throws InterruptedException {
    long nanos = Duration.ofMinutes(2).toNanos();
    lock.lock();
    try {
      stopped.removeIf(k -> k.in(namespace, session));
      if (session == null) {
        failures.clear(namespace);
      }
      for (Map.Entry<SessionKey, Lane> e : lanes.entrySet()) {
        if (e.getKey().in(namespace, session)) {
          Lane lane = e.getValue();
          // keep the item being encoded until its attempt returns; drop the rest
          Item head = lane.running ? lane.items.pollFirst() : null;
          while (!lane.items.isEmpty()) {
            finish(e.getKey(), lane, lane.items.pollFirst());
          }
          if (head != null) {
            lane.items.addFirst(head);
          }
        }
      }
      while (lanes.entrySet().stream().anyMatch(e -> e.getKey().in(namespace, session) && e.getValue().running)
          && nanos > 0) {
        nanos = changed.awaitNanos(nanos);
      }
      lanes.entrySet().removeIf(e -> {
        if (e.getKey().in(namespace, session)) {
          while (!e.getValue().items.isEmpty()) {
            finish(e.getKey(), e.getValue(), e.getValue().items.pollFirst());
          }
          return true;
        }
        return false;
      });
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops after the attempts in progress; queued segments stay PENDING in the store and are resumed
   * when it is opened again.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    WorkerPools.stop(pool);
  }
}
