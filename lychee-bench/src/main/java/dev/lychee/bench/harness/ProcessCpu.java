package dev.lychee.bench.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where this process's CPU went during a span of wall time: per Java thread, grouped by name
 * (digits replaced by {@code #}, so that Lucene's numbered merge threads are one group), the rest of
 * the process by the name Linux gives its threads (JIT compilers, GC workers, the VM thread, native
 * threads such as a library's pool, threads that ended within the span), the time threads waited
 * for a core, and the garbage collections. Why: on the quiet machine Lucene's whole process ran
 * slower at x20 than SQLite's, its query embedding timed alone included, and the recall's stage
 * timer cannot say what else ran beside it (rounds twenty-four and twenty-five, docs/measurements.md
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
   *     counted in the OS's clock ticks, 10 ms on Linux, or where larger the sum of the OS's threads)
   * @param threads live Java threads' CPU by name group, most first
   * @param elsewhereMs the process's CPU not in {@code threads}: JIT and GC workers, native threads,
   *     threads that ended in the span (NaN without the process's CPU)
   * @param elsewhereThreads what of the process's CPU ran outside the Java threads, by the name
   *     group of the OS threads it ran on ({@code C2 CompilerThre}, {@code GC Thread#}, {@code VM
   *     Thread}, ...), most first; empty where the OS's threads cannot be read (not Linux)
   * @param runQueueMs time the process's threads were runnable but waited for a core, summed over
   *     threads (NaN where unknown): a core's worth over the span means something else held the
   *     cores. Linux brings a thread's counters up to date when it gets or leaves a core and at each
   *     scheduler tick, so a span shorter than about a hundred milliseconds reads them coarsely
   * @param callerRunQueueMs the same for the thread that marked the span
   * @param collections garbage collections that ended in the span (all collectors)
   * @param collectionMs their summed time as the collectors report it
   */
  public record Span(double wallMs, double processCpuMs, List<Group> threads, double elsewhereMs,
      List<Group> elsewhereThreads, double runQueueMs, double callerRunQueueMs, long collections,
      double collectionMs) {

    /** The CPU of one thread group in the span, 0 when absent. */
    public double cpuMs(String group) {
      return threads.stream().filter(g -> g.name().equals(group)).mapToDouble(Group::cpuMs).sum();
    }

    /** The CPU of one OS thread group outside the Java threads in the span, 0 when absent. */
    public double elsewhereCpuMs(String osGroup) {
      return elsewhereThreads.stream().filter(g -> g.name().equals(osGroup)).mapToDouble(Group::cpuMs).sum();
    }

    /**
     * "1.95 cores: main 1.00, elsewhere 0.95 (C2 CompilerThre 0.81, VM Thread 0.02); waited for a
     * core 0.12 (main 0.01); 0 GCs 0 ms", groups of at least 0.01 cores, at most six Java and six
     * other.
     */
    public String describe() {
      StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%.2f cores:", processCpuMs / wallMs));
      threads.stream().filter(g -> g.cpuMs() >= 0.01 * wallMs).limit(6)
          .forEach(g -> sb.append(String.format(Locale.ROOT, " %s %.2f,", g.name(), g.cpuMs() / wallMs)));
      if (Double.isNaN(runQueueMs)) {
        // no OS view of the threads (not Linux)
        sb.append(String.format(Locale.ROOT, " elsewhere (JIT, GC, native) %.2f;", elsewhereMs / wallMs));
      } else {
        sb.append(String.format(Locale.ROOT, " elsewhere %.2f (", elsewhereMs / wallMs));
        List<String> named = elsewhereThreads.stream().filter(g -> g.cpuMs() >= 0.01 * wallMs).limit(6)
            .map(g -> String.format(Locale.ROOT, "%s %.2f", g.name(), g.cpuMs() / wallMs)).toList();
        sb.append(named.isEmpty() ? "none above 0.01" : String.join(", ", named)).append(");");
      }
      if (!Double.isNaN(runQueueMs)) {
        sb.append(String.format(Locale.ROOT, " waited for a core %.2f (caller %.2f);", runQueueMs / wallMs,
            callerRunQueueMs / wallMs));
      }
      sb.append(String.format(Locale.ROOT, " %d GCs %.0f ms", collections, collectionMs));
      return sb.toString();
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final long wallNanos;
  private final long processCpuNanos;
  /** CPU nanoseconds by thread id, and each thread's name group. */
  private final Map<Long, Long> cpuByThread;
  private final Map<Long, String> groupByThread;
  /** The live Java threads' groups as their OS threads are named ({@link OsThreads#groupOfJavaName}). */
  private final Set<String> javaOsGroups;
  /** Every OS thread of the process by its id (empty where unreadable), and the marking thread's id. */
  private final Map<Integer, OsThreads.Task> tasks;
  private final int callerTid;
  private final long collections;
  private final long collectionMs;

  private ProcessCpu(long wallNanos, long processCpuNanos, Map<Long, Long> cpuByThread, Map<Long, String> groupByThread,
      Set<String> javaOsGroups, Map<Integer, OsThreads.Task> tasks, int callerTid, long collections,
      long collectionMs) {
    this.wallNanos = wallNanos;
    this.processCpuNanos = processCpuNanos;
    this.cpuByThread = cpuByThread;
    this.groupByThread = groupByThread;
    this.javaOsGroups = javaOsGroups;
    this.tasks = tasks;
    this.callerTid = callerTid;
    this.collections = collections;
    this.collectionMs = collectionMs;
  }

  /** The process's CPU counters now. */
  public static ProcessCpu mark() {
    return mark(OsThreads.TASKS);
  }

  /** The same with the OS's threads read from {@code taskDir} (tests: a directory that is not there). */
  static ProcessCpu mark(Path taskDir) {
    Map<Long, Long> cpu = new HashMap<>();
    Map<Long, String> group = new HashMap<>();
    Set<String> osGroups = new HashSet<>();
    Thread caller = Thread.currentThread();
    if (THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()) {
      for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
        if (info == null) {
          continue; // ended since the ids were read
        }
        long ns = THREADS.getThreadCpuTime(info.getThreadId());
        if (ns >= 0) {
          cpu.put(info.getThreadId(), ns);
          group.put(info.getThreadId(), group(info.getThreadName()));
          // the caller's OS thread is named after it (OsThreads.read), the others after their comm
          osGroups.add(info.getThreadId() == caller.getId() ? group(info.getThreadName())
              : OsThreads.groupOfJavaName(info.getThreadName()));
        }
      }
    }
    long count = 0;
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      ms += Math.max(0, gc.getCollectionTime());
    }
    int tid = OsThreads.currentTid();
    Map<Integer, OsThreads.Task> tasks = tid < 0 ? Map.of() : OsThreads.read(taskDir, tid, caller.getName());
    return new ProcessCpu(System.nanoTime(), processCpuNanos(), cpu, group, osGroups, tasks, tid, count, ms);
  }

  /**
   * The span from {@code start} to {@code end}. A thread started within it counts all its CPU; one
   * that ended within it is in {@link Span#elsewhereMs} and, when it was a Java thread, in no group of
   * {@link Span#elsewhereThreads}.
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
    boolean known = start.processCpuNanos >= 0 && end.processCpuNanos >= 0;
    double processMs = known ? (end.processCpuNanos - start.processCpuNanos) / 1e6 : Double.NaN;
    // the process's clock counts in ticks (10 ms), its threads' finer: over a short span the sum of
    // the OS threads is the better count, though it misses threads that ended within the span
    double osMs = osThreadsMs(start, end);
    if (known && !Double.isNaN(osMs)) {
      processMs = Math.max(processMs, osMs);
    }
    return new Span((end.wallNanos - start.wallNanos) / 1e6, processMs, sorted(byGroup),
        known ? Math.max(0, processMs - inThreads / 1e6) : Double.NaN, outsideJava(start, end),
        runQueueMs(start, end, null), runQueueMs(start, end, end.callerTid), end.collections - start.collections,
        end.collectionMs - start.collectionMs);
  }

  /**
   * The CPU of the OS threads whose name group is no live Java thread's: the JVM's own threads and
   * native ones. A name is what tells them apart (the JVM names a Java thread's OS thread after it,
   * cut to 15 characters); comparing names, not CPU counts read a moment apart by two clocks, keeps a
   * busy Java thread out of this list. A native thread named like a Java thread (a library's pool
   * started by it inherits its name) is left out with it.
   */
  private static List<Group> outsideJava(ProcessCpu start, ProcessCpu end) {
    if (start.tasks.isEmpty() || end.tasks.isEmpty()) {
      return List.of();
    }
    Map<String, Long> byOsGroup = new TreeMap<>();
    for (Map.Entry<Integer, OsThreads.Task> e : end.tasks.entrySet()) {
      OsThreads.Task before = start.tasks.get(e.getKey());
      long delta = e.getValue().cpuNanos() - (before == null ? 0 : before.cpuNanos());
      String name = e.getValue().name();
      if (delta > 0 && !start.javaOsGroups.contains(name) && !end.javaOsGroups.contains(name)) {
        byOsGroup.merge(name, delta, Long::sum);
      }
    }
    return sorted(byOsGroup);
  }

  /** The CPU of every OS thread in the span, NaN where they cannot be read. */
  private static double osThreadsMs(ProcessCpu start, ProcessCpu end) {
    if (start.tasks.isEmpty() || end.tasks.isEmpty()) {
      return Double.NaN;
    }
    long ns = 0;
    for (Map.Entry<Integer, OsThreads.Task> e : end.tasks.entrySet()) {
      OsThreads.Task before = start.tasks.get(e.getKey());
      ns += Math.max(0, e.getValue().cpuNanos() - (before == null ? 0 : before.cpuNanos()));
    }
    return ns / 1e6;
  }

  /** Run-queue waits in the span: of every thread, or of the one with id {@code tid}; NaN when unknown. */
  private static double runQueueMs(ProcessCpu start, ProcessCpu end, Integer tid) {
    if (start.tasks.isEmpty() || end.tasks.isEmpty()) {
      return Double.NaN;
    }
    long ns = 0;
    for (Map.Entry<Integer, OsThreads.Task> e : end.tasks.entrySet()) {
      if (tid != null && e.getKey().intValue() != tid) {
        continue;
      }
      OsThreads.Task before = start.tasks.get(e.getKey());
      if (e.getValue().waitNanos() < 0 || (before != null && before.waitNanos() < 0)) {
        return Double.NaN; // a kernel without schedstat
      }
      ns += e.getValue().waitNanos() - (before == null ? 0 : before.waitNanos());
    }
    return ns / 1e6;
  }

  private static List<Group> sorted(Map<String, Long> nanosByName) {
    List<Group> groups = new ArrayList<>(nanosByName.size());
    nanosByName.forEach((name, ns) -> groups.add(new Group(name, ns / 1e6)));
    groups.sort((a, b) -> Double.compare(b.cpuMs(), a.cpuMs()));
    return List.copyOf(groups);
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
