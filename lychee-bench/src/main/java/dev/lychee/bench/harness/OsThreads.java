package dev.lychee.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Every thread of this process as Linux counts it ({@code /proc/self/task}): the Java threads, the
 * JVM's own (JIT compilers, GC workers, the VM thread), which no Java API lists, and native threads
 * of a library. Why: the Java threads' CPU left up to a core of "the rest of the process" unnamed
 * beside Lucene's lone query embedding at x20 (round twenty-four, docs/measurements.md §6).
 *
 * <p>A thread's CPU and its time waiting on a run queue come from {@code schedstat} in
 * nanoseconds; without it, the CPU from {@code stat}'s user and system ticks (1/100 s, Linux's fixed
 * {@code USER_HZ}) and no wait. Elsewhere than on Linux the directory is absent and {@link #read}
 * returns nothing, so callers fall back to what the JVM reports. A read opens two small files per
 * thread, well under a millisecond for the fifty threads of a bench process.
 */
final class OsThreads {
  /** Linux's comm: a thread's name cut to 15 characters. */
  static final int NAME_LENGTH = 15;

  /** The clock of {@code stat}'s CPU fields, fixed at 100 per second by Linux's ABI. */
  private static final long NANOS_PER_TICK = 10_000_000L;

  /**
   * One thread's counters.
   *
   * @param name its name group ({@link #group})
   * @param cpuNanos CPU time so far
   * @param waitNanos time runnable but waiting for a core so far, -1 when unknown
   */
  record Task(String name, long cpuNanos, long waitNanos) {}

  private OsThreads() {}

  /** This process's threads, one directory each. */
  static final Path TASKS = Path.of("/proc/self/task");

  /**
   * The threads of {@code taskDir} ({@link #TASKS}) by id, the one with id {@code callerTid} named
   * {@code callerName} as a Java group instead of by its comm (the JVM leaves the main thread's comm
   * at the launcher's {@code java}); empty where the directory cannot be read.
   */
  static Map<Integer, Task> read(Path taskDir, int callerTid, String callerName) {
    Map<Integer, Task> out = new HashMap<>();
    if (!Files.isDirectory(taskDir)) {
      return out;
    }
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
      for (Path task : tasks) {
        int tid;
        try {
          tid = Integer.parseInt(task.getFileName().toString());
        } catch (NumberFormatException e) {
          continue;
        }
        Task t = readTask(task, tid == callerTid ? callerName : null);
        if (t != null) {
          out.put(tid, t);
        }
      }
    } catch (IOException | RuntimeException e) {
      return new HashMap<>(); // the directory went away or is not what Linux writes: no OS view
    }
    return out;
  }

  /** The id of the calling thread, -1 where {@code /proc/thread-self} is absent. */
  static int currentTid() {
    try {
      // "<pid>/task/<tid>"
      Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return Integer.parseInt(link.getFileName().toString());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * A comm as a group: a trailing number (with the {@code #} before it, if any) becomes {@code #},
   * so that {@code GC Thread#0} and {@code GC Thread#1} are one group while {@code C1
   * CompilerThre} and {@code C2 CompilerThre} stay apart.
   */
  static String group(String comm) {
    return comm.replaceFirst("#?[0-9]+$", "#");
  }

  /** A Java thread's name as its comm would read (cut to 15 characters), as a group. */
  static String groupOfJavaName(String javaName) {
    return group(javaName.length() > NAME_LENGTH ? javaName.substring(0, NAME_LENGTH) : javaName);
  }

  private static Task readTask(Path task, String nameOverride) {
    String stat;
    try {
      stat = Files.readString(task.resolve("stat"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null; // the thread ended
    }
    // "<tid> (<comm>) <state> ...": the comm may hold spaces and parentheses, so the last ')' ends it
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      return null;
    }
    String comm = stat.substring(open + 1, close);
    String[] fields = stat.substring(close + 2).trim().split(" ");
    // fields[0] is the state (field 3), so utime (field 14) and stime (15) are at 11 and 12
    long cpu = fields.length > 12 ? (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK : 0;
    long wait = -1;
    try {
      String[] sched = Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII).trim().split(" ");
      if (sched.length >= 2) {
        cpu = Long.parseLong(sched[0]);
        wait = Long.parseLong(sched[1]);
      }
    } catch (IOException | NumberFormatException e) {
      // no schedstat (a kernel without CONFIG_SCHED_INFO): the ticks stay
    }
    String name = nameOverride != null ? ProcessCpu.group(nameOverride) : group(comm);
    return new Task(name, cpu, wait);
  }
}
