package dev.lychee.bench.harness;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the JIT compiler does while one scale of {@code eval speed} warms up and is timed (round
 * twenty-three, docs/measurements.md §6): the JVM's accumulated compile time
 * ({@link CompilationMXBean}, read live), the compiler threads' busy time ({@link #compilerBusyMs}, which
 * the warm-up's stopping rule uses since round twenty-five) and, after the
 * fact, how many compilations started in a span and how long they took, from JFR's
 * {@code jdk.Compilation} events recorded without a threshold (one per compilation, C1 and C2).
 * Where JFR cannot record, the counts are unknown ({@link Span#UNKNOWN}) and the timings go on.
 * One per scale: {@link #start}, then {@link #spans} once.
 */
public final class JitWatch {
  /**
   * The compilations that started in a span and their summed duration; {@code compilations} is -1
   * when unknown.
   */
  public record Span(int compilations, double compileMs) {
    /** No JFR to count with. */
    public static final Span UNKNOWN = new Span(-1, Double.NaN);

    /** "12 compilations, 340 ms", or "unknown". */
    public String describe() {
      return compilations < 0 ? "compilations unknown (no JFR)"
          : String.format(java.util.Locale.ROOT, "%d compilations, %.0f ms", compilations, compileMs);
    }
  }

  private static final CompilationMXBean COMPILER = ManagementFactory.getCompilationMXBean();

  private final Recording recording;
  private final Path file;

  private JitWatch(Recording recording, Path file) {
    this.recording = recording;
    this.file = file;
  }

  /** Starts recording compilations; without JFR, a watch that counts nothing. */
  public static JitWatch start() {
    Path file = null;
    Recording r = null;
    try {
      file = Files.createTempFile("lychee-jit", ".jfr");
      r = new Recording();
      r.setName("lychee eval speed: compilations");
      r.enable("jdk.Compilation").withoutThreshold();
      r.setDestination(file);
      r.start();
      return new JitWatch(r, file);
    } catch (IOException | RuntimeException | LinkageError e) {
      if (r != null) {
        r.close();
      }
      deleteQuietly(file);
      return new JitWatch(null, null);
    }
  }

  /**
   * Milliseconds this JVM's JIT has spent compiling since it started (elapsed time summed over the
   * compiler threads; 0 where the JVM does not time it). Read live: a compilation counts once done.
   */
  public static double compileMs() {
    return COMPILER != null && COMPILER.isCompilationTimeMonitoringSupported() ? COMPILER.getTotalCompilationTime() : 0;
  }

  /**
   * Milliseconds the JIT's compiler threads ({@code C1 CompilerThre}, {@code C2 CompilerThre}) have
   * been busy so far: on a core, or runnable and waiting for one. Read from the OS's threads
   * ({@link OsThreads}, Linux); where they cannot be read, {@link #compileMs}. Unlike {@link
   * #compileMs}, which counts a compilation once it ends, this grows while one is under way: C2's
   * compilation of a large method took 1 to 4 s at x20 (EvidenceNodeChannel.recall, inlining the
   * store's read path, four times over after deoptimizations), so a warm-up block could read quiet
   * with the compiler busy the whole block and on into the timed window. The wait counts because on
   * a loaded machine a busy compiler thread gets a few percent of a core, which alone would read
   * quiet (round twenty-five, docs/measurements.md §6).
   */
  public static double compilerBusyMs() {
    java.util.Map<Integer, OsThreads.Task> tasks = OsThreads.read(OsThreads.TASKS, -1, null);
    if (tasks.isEmpty()) {
      return compileMs();
    }
    return compilerBusyMs(tasks.values());
  }

  /** The compiler threads' CPU and run-queue wait among {@code tasks}, in milliseconds. */
  static double compilerBusyMs(java.util.Collection<OsThreads.Task> tasks) {
    long ns = 0;
    for (OsThreads.Task t : tasks) {
      if (isCompiler(t.name())) {
        ns += t.cpuNanos() + Math.max(0, t.waitNanos());
      }
    }
    return ns / 1e6;
  }

  /** HotSpot's compiler threads as the OS names them: {@code C1 CompilerThread0} cut to 15 characters. */
  static boolean isCompiler(String osGroup) {
    return osGroup.endsWith("CompilerThre") || osGroup.startsWith("JVMCI");
  }

  /**
   * Stops the recording and returns, per consecutive pair of {@code marks}, the compilations that
   * started between them. Call it a little after the last mark, so that compilations under way
   * then have ended and been written.
   */
  public Span[] spans(Instant... marks) {
    Span[] out = new Span[Math.max(0, marks.length - 1)];
    java.util.Arrays.fill(out, Span.UNKNOWN);
    if (recording == null) {
      return out;
    }
    try {
      recording.stop();
      int[] counts = new int[out.length];
      double[] ms = new double[out.length];
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        // the file holds every event of the chunks it was written in, those of any other recording
        // running beside (a -XX:StartFlightRecording profile) included
        if (!e.getEventType().getName().equals("jdk.Compilation")) {
          continue;
        }
        Instant at = e.getStartTime();
        for (int i = 0; i < out.length; i++) {
          if (!at.isBefore(marks[i]) && at.isBefore(marks[i + 1])) {
            counts[i]++;
            ms[i] += e.getDuration().toNanos() / 1e6;
          }
        }
      }
      for (int i = 0; i < out.length; i++) {
        out[i] = new Span(counts[i], ms[i]);
      }
    } catch (IOException | RuntimeException e) {
      // the counts stay unknown; the timings do not depend on them
    } finally {
      recording.close();
      deleteQuietly(file);
    }
    return out;
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a temporary file left behind is harmless
      }
    }
  }
}
