package dev.lychee.bench.harness;

import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.EvalSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * Ingest throughput with several instances writing to one store at once: each writer is its own
 * system (its own Lychee, pool and caches) and ingests {@code factor} copies of the conversation
 * into a namespace of its own, all starting together. Reports the turns of all writers over the
 * wall time, beside the same run with one writer, so that contention shows as a ratio.
 */
public final class ParallelIngest {
  /**
   * @param writers how many wrote at once
   * @param turns turns written by all writers together
   * @param wallSeconds from the common start until the last writer finished
   */
  public record Result(int writers, int turns, double wallSeconds) {
    public double turnsPerS() {
      return turns / wallSeconds;
    }
  }

  private final Supplier<EvalSystem> systemFactory;

  public ParallelIngest(Supplier<EvalSystem> systemFactory) {
    this.systemFactory = Objects.requireNonNull(systemFactory, "systemFactory");
  }

  /** Runs {@code writers} writers at once; their namespaces are forgotten afterwards. */
  public Result run(LocomoConversation conversation, int factor, int writers) throws InterruptedException {
    if (writers < 1 || factor < 1) {
      throw new IllegalArgumentException("writers and factor must be >= 1");
    }
    List<EvalSession> sessions = new ArrayList<>();
    for (int copy = 0; copy < factor; copy++) {
      sessions.addAll(LocomoSessions.replica(conversation, copy));
    }
    int perWriter = sessions.stream().mapToInt(s -> s.turns().size()).sum();
    List<EvalSystem> systems = new ArrayList<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    try {
      for (int w = 0; w < writers; w++) {
        EvalSystem s = systemFactory.get();
        systems.add(s);
        // a crashed earlier run may have left the namespace behind in a shared store
        s.forget(namespace(factor, w));
      }
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        EvalSystem s = systems.get(w);
        String ns = namespace(factor, w);
        threads.add(new Thread(() -> {
          try {
            start.await();
            s.ingest(ns, sessions);
          } catch (Throwable t) {
            errors.add(t);
          }
        }, "ingest-writer-" + w));
      }
      threads.forEach(Thread::start);
      long t0 = System.nanoTime();
      start.countDown();
      for (Thread t : threads) {
        t.join();
      }
      double wall = (System.nanoTime() - t0) / 1e9;
      if (!errors.isEmpty()) {
        throw new IllegalStateException("a writer failed: " + errors.peek().getMessage(), errors.peek());
      }
      for (int w = 0; w < writers; w++) {
        systems.get(w).forget(namespace(factor, w));
      }
      return new Result(writers, perWriter * writers, wall);
    } finally {
      for (EvalSystem s : systems) {
        s.close();
      }
    }
  }

  private static String namespace(int factor, int writer) {
    return "ingest-x" + factor + "-w" + writer;
  }
}
