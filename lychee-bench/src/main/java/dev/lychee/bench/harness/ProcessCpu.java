package dev.lychee.bench.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where this process's CPU went during a span of wall time: per Java thread, grouped by name
 * (digits replaced by {@code #}, so that Lucene's numbered merge threads are one group), the rest of
 * the process (JIT compiler and GC workers, native threads such as ONNX Runtime's, threads that
 * ended within the span), and the garbage collections. Why: on the quiet machine Lucene's whole
 * process ran slower at x20 than SQLite's, its query embedding timed alone included, and the
 * recall's stage timer cannot say what else ran beside it (round twenty-four, docs/measurements.md
 * §6). {@link #mark} before and after a span, then {@link #between}.
 */
public final class ProcessCpu {
  /** CPU a group of threads used in a span, in milliseconds (divide by the span's wall time for cores). */
  public record Group(String name, double cpuMs) {}

  /**
   * One span.
   *
   * @param wallMs the span's wall time
   * @param processCpuMs the whole process's CPU time in it (NaN where the JVM does not report it;
   *     counted in the OS's clock ticks, 10 ms on Linux, the threads' finer)
   * @param threads live Java threads' CPU by name group, most first
   * @param elsewhereMs the process's CPU not in {@code threads}: JIT and GC workers, native threads,
   *     threads that ended in the span (NaN without the process's CPU)
   * @param collections garbage collections that ended in the span (all collectors)
   * @param collectionMs their summed time as the collectors report it
   */
  public record Span(double wallMs, double processCpuMs, List<Group> threads, double elsewhereMs, long collections,
      double collectionMs) {

    /** The CPU of one thread group in the span, 0 when absent. */
    public double cpuMs(String group) {
      return threads.stream().filter(g -> g.name().equals(group)).mapToDouble(Group::cpuMs).sum();
    }

    /**
     * "1.62 cores: main 0.74, lychee-recall-early-# 0.31, elsewhere 0.52; 2 GCs 31 ms", groups of at
     * least 0.01 cores, at most six.
     */
    public String describe() {
      StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%.2f cores:", processCpuMs / wallMs));
      threads.stream().filter(g -> g.cpuMs() >= 0.01 * wallMs).limit(6)
          .forEach(g -> sb.append(String.format(Locale.ROOT, " %s %.2f,", g.name(), g.cpuMs() / wallMs)));
      sb.append(String.format(Locale.ROOT, " elsewhere (JIT, GC, native) %.2f; %d GCs %.0f ms", elsewhereMs / wallMs,
          collections, collectionMs));
      return sb.toString();
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long wallNanos;
  private final long processCpuNanos;
  /** CPU nanoseconds by thread id, and each thread's name group. */
  private final Map<Long, Long> cpuByThread;
  private final Map<Long, String> groupByThread;
  private final long collections;
  private final long collectionMs;

  private ProcessCpu(long wallNanos, long processCpuNanos, Map<Long, Long> cpuByThread, Map<Long, String> groupByThread,
      long collections, long collectionMs) {
    this.wallNanos = wallNanos;
    this.processCpuNanos = processCpuNanos;
    this.cpuByThread = cpuByThread;
    this.groupByThread = groupByThread;
    this.collections = collections;
    this.collectionMs = collectionMs;
  }

  /** The process's CPU counters now. */
  public static ProcessCpu mark() {
    Map<Long, Long> cpu = new HashMap<>();
    Map<Long, String> group = new HashMap<>();
    if (THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()) {
      for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
        if (info == null) {
          continue; // ended since the ids were read
        }
        long ns = THREADS.getThreadCpuTime(info.getThreadId());
        if (ns >= 0) {
          cpu.put(info.getThreadId(), ns);
          group.put(info.getThreadId(), group(info.getThreadName()));
        }
      }
    }
    long count = 0;
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      ms += Math.max(0, gc.getCollectionTime());
    }
    return new ProcessCpu(System.nanoTime(), processCpuNanos(), cpu, group, count, ms);
  }

  /**
   * The span from {@code start} to {@code end}. A thread started within it counts all its CPU; one
   * that ended within it is in {@link Span#elsewhereMs}.
   */
  public static Span between(ProcessCpu start, ProcessCpu end) {
    Map<String, Long> byGroup = new TreeMap<>();
    long inThreads = 0;
    for (Map.Entry<Long, Long> e : end.cpuByThread.entrySet()) {
      long delta = e.getValue() - start.cpuByThread.getOrDefault(e.getKey(), 0L);
      if (delta > 0) {
        byGroup.merge(end.groupByThread.get(e.getKey()), delta, Long::sum);
        inThreads += delta;
      }
    }
    List<Group> groups = new ArrayList<>(byGroup.size());
    byGroup.forEach((name, ns) -> groups.add(new Group(name, ns / 1e6)));
    groups.sort((a, b) -> Double.compare(b.cpuMs(), a.cpuMs()));
    boolean known = start.processCpuNanos >= 0 && end.processCpuNanos >= 0;
    double processMs = known ? (end.processCpuNanos - start.processCpuNanos) / 1e6 : Double.NaN;
    return new Span((end.wallNanos - start.wallNanos) / 1e6, processMs, List.copyOf(groups),
        known ? Math.max(0, processMs - inThreads / 1e6) : Double.NaN, end.collections - start.collections,
        end.collectionMs - start.collectionMs);
  }

  /** A thread's name with its digits replaced: numbered threads of one pool are one group. */
  static String group(String threadName) {
    return threadName.replaceAll("[0-9]+", "#");
  }

  private static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return -1;
  }
}
