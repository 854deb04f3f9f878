package dev.lychee.bench.harness;

import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.bench.systems.DocumentVectorReuse;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.EvalSystem;
import dev.lychee.bench.systems.LycheeSystem;
import dev.lychee.bench.systems.MeteredEmbedder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Speed and scale (evaluation.md §4): for each scale factor, one namespace receives the
 * conversation replicated that many times (new session ids per copy); the run reports ingest turns
 * per second beside the embedder's own throughput on the same texts, recall latency p50/p95 beside
 * one query embedding, and the heap in use after ingest and the timed recalls (after a GC; measured
 * after them so that the forced collections do not shrink the heap just before the timed window).
 *
 * <p>The timed system's embedder is wrapped in a {@link MeteredEmbedder}, so that each scale also
 * reports how many texts ingest embedded per turn and what share of the ingest wall time was spent
 * inside the embedder (summed over the threads that called it).
 *
 * <p>The system is created fresh per scale factor by {@code systemFactory}, on a fresh embedder from
 * {@code embedders}, so nothing is cached between scales; neither those embedders nor the one given
 * for the reference timings may cache.
 *
 * <p>Before recall is timed at a scale, {@code warmup} other questions of the conversation (those
 * after the timed ones, taken again in turn when there are fewer) are recalled untimed, so the first
 * timed questions do not pay for the JIT compiling the recall path: the measure is the steady state a
 * running service sees. A timed question is never recalled before its timing, so no read cache holds
 * its answer in advance. With {@link #warmUntilJitQuiet} the warm-up goes on after those, in blocks
 * of ten recalls, until two blocks in a row in each of which the JIT
 * compiled for at most 5% of the block's wall time, or the bound: at scale 20, ten recalls left the
 * channels' hot code to C2 during the timed window (docs/measurements.md §6, rounds twenty-two and
 * twenty-three). The rule looks only at the warm-up, never at timed recalls, so it cannot pick a
 * window; each scale reports how many warm-up recalls it ran and what the JIT compiled during the
 * warm-up and during the timed window ({@link Warmup}).
 */
public final class SpeedRun {
  /**
   * One scale factor's measurements.
   *
   * @param turns turns ingested into the namespace
   * @param embeddingsPerTurn texts the system embedded during ingest, per turn ingested
   * @param embedderShare time inside the embedder during ingest over the ingest wall time
   * @param queryEmbedMs median query embedding of the timed questions, timed once at the start of
   *     the run (beside the embedder-alone rate)
   * @param queryEmbedBesideMs the same, timed again at this scale right before its timed recalls
   * @param besideCpu where the process's CPU went while {@code queryEmbedBesideMs} was timed
   * @param windowCpu where the process's CPU went during the timed recalls
   */
  public record Scale(int factor, int turns, double ingestTurnsPerS, double embedderTurnsPerS,
      double recallP50Ms, double recallP95Ms, double queryEmbedMs, double heapMb, double embeddingsPerTurn,
      double embedderShare, double queryEmbedBesideMs, Warmup warmup, ProcessCpu.Span besideCpu,
      ProcessCpu.Span windowCpu) {

    /** Recall p50 over the query embedding timed beside the recalls (issue 21's target: at most 3 at x20). */
    public double p50Ratio() {
      return recallP50Ms / queryEmbedBesideMs;
    }

    /** Recall p95 over the query embedding timed beside the recalls (issue 21's target: at most 6 at x20). */
    public double p95Ratio() {
      return recallP95Ms / queryEmbedBesideMs;
    }
  }

  /**
   * One scale's warm-up and what the JIT did around the timed window.
   *
   * @param recalls untimed recalls before the timed window
   * @param quiet whether the last two blocks were quiet ({@link #warmUntilJitQuiet}); false when the bound
   *     ended the warm-up, or the warm-up was a fixed number
   * @param jitMs the JIT's clock during the warm-up, as {@link #warmUntilJitQuiet} was given it ({@code eval
   *     speed}: the compiler threads' busy time, {@link JitWatch#compilerBusyMs})
   * @param duringWarmup compilations that started during the warm-up (JFR)
   * @param duringWindow compilations that started during the timed recalls (JFR)
   */
  public record Warmup(int recalls, boolean quiet, double jitMs, JitWatch.Span duringWarmup,
      JitWatch.Span duringWindow) {

    /** One line for the table: the warm-up and the timed window's compilations. */
    public String describe() {
      return String.format(java.util.Locale.ROOT, "%d warm-up recalls%s, JIT %.0f ms in them (%s); timed window: %s",
          recalls, quiet ? " (JIT quiet)" : "", jitMs, duringWarmup.describe(), duringWindow.describe());
    }
  }

  /** Warm-up recalls per block once the fixed ones are done ({@link #warmUntilJitQuiet}). */
  static final int WARMUP_BLOCK = 10;
  /** A block is quiet when the JIT compiled for at most this share of its wall time. */
  static final double QUIET_SHARE = 0.05;
  /** Quiet blocks in a row that end the warm-up. */
  static final int QUIET_BLOCKS = 2;

  private final Function<Embedder, EvalSystem> systemFactory;
  private final Supplier<Embedder> embedders;
  private final Embedder referenceEmbedder;
  private final int maxQueries;
  private final int warmup;
  private int warmupMax;
  private DoubleSupplier jitMs = JitWatch::compileMs;
  private final Progress progress;
  private int reuseFrom = Integer.MAX_VALUE;
  private RecallStages stages;
  private final List<String> stageTables = new ArrayList<>();

  /**
   * @param systemFactory the system to time, given the (metered) embedder it must use
   * @param embedders a fresh uncached embedder per scale, for the timed system
   * @param warmup untimed recalls before timing at each scale, with questions after the timed
   *     ones (fewer when the conversation has fewer)
   */
  public SpeedRun(Function<Embedder, EvalSystem> systemFactory, Supplier<Embedder> embedders,
      Embedder referenceEmbedder, int maxQueries, int warmup, Progress progress) {
    this.systemFactory = Objects.requireNonNull(systemFactory, "systemFactory");
    this.embedders = Objects.requireNonNull(embedders, "embedders");
    this.referenceEmbedder = Objects.requireNonNull(referenceEmbedder, "referenceEmbedder");
    if (maxQueries < 1) {
      throw new IllegalArgumentException("maxQueries must be >= 1");
    }
    this.maxQueries = maxQueries;
    if (warmup < 0) {
      throw new IllegalArgumentException("warmup must be >= 0");
    }
    this.warmup = warmup;
    this.warmupMax = warmup;
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /**
   * After the {@code warmup} recalls, goes on warming up in blocks of ten until two
   * blocks in a row in each of which the JIT's clock ({@code compileMs}, accumulated milliseconds:
   * {@code eval speed} gives the compiler threads' busy time, {@link JitWatch#compilerBusyMs}, which
   * also counts a compilation under way) grew by at most 5% of the block's wall time, and at most to {@code
   * max} warm-up recalls in all. Default: exactly {@code warmup} recalls.
   */
  public SpeedRun warmUntilJitQuiet(int max, DoubleSupplier compileMs) {
    if (max < warmup) {
      throw new IllegalArgumentException("the warm-up's bound (" + max + ") must be >= its minimum (" + warmup + ")");
    }
    this.warmupMax = max;
    this.jitMs = Objects.requireNonNull(compileMs, "compileMs");
    return this;
  }

  /**
   * From this scale factor on, the timed system's document embeddings go through a
   * {@link DocumentVectorReuse}: the texts of copies 2..N are served the vectors copy 1 received,
   * so the ingest of a large scale costs one copy's embeddings; queries are still embedded fresh.
   * Such a scale reports no ingest rate (NaN). Default: never.
   */
  public SpeedRun reuseDocumentVectorsFrom(int factor) {
    if (factor < 1) {
      throw new IllegalArgumentException("factor must be >= 1");
    }
    this.reuseFrom = factor;
    return this;
  }

  /**
   * Times the stages of every timed recall of a Lychee system with {@code stages} (its embedder is
   * wrapped so that the query batch is marked); {@link #stageTables()} holds one table per scale.
   * The observer's hooks cost a clock read each. Default: no stage timings.
   */
  public SpeedRun timeStages(RecallStages stages) {
    this.stages = Objects.requireNonNull(stages, "stages");
    return this;
  }

  /** One stage table per scale run so far ({@link #timeStages}); empty without stage timings. */
  public List<String> stageTables() {
    return List.copyOf(stageTables);
  }

  public List<Scale> run(LocomoConversation conversation, List<Integer> factors) {
    List<String> all = conversation.questions().stream().map(LocomoQuestion::question).toList();
    List<String> questions = all.subList(0, Math.min(maxQueries, all.size()));
    List<String> warmQuestions = all.subList(questions.size(), all.size());
    if (questions.isEmpty()) {
      throw new IllegalArgumentException(conversation.sampleId() + " has no question to time recall with");
    }
    // The embedder alone, on the texts of one copy (a copy's texts are identical, so its
    // per-turn throughput is the same at every scale) and on every timed question.
    List<String> oneCopy = LocomoSessions.of(conversation).stream().flatMap(s -> s.turns().stream())
        .map(Turn::text).toList();
    progress.start("embedder alone", 1);
    long e0 = System.nanoTime();
    referenceEmbedder.embedDocuments(oneCopy);
    double embedderTurnsPerS = oneCopy.size() / ((System.nanoTime() - e0) / 1e9);
    double queryEmbedMs = medianQueryEmbedding(questions);
    progress.step();
    progress.done(String.format("%.0f turns/s, one query %.1f ms", embedderTurnsPerS, queryEmbedMs));

    List<Scale> out = new ArrayList<>();
    for (int factor : factors) {
      List<EvalSession> sessions = new ArrayList<>();
      for (int copy = 0; copy < factor; copy++) {
        sessions.addAll(LocomoSessions.replica(conversation, copy));
      }
      List<String> texts = sessions.stream().flatMap(s -> s.turns().stream()).map(Turn::text).toList();
      String ns = "speed-x" + factor;
      MeteredEmbedder meter = new MeteredEmbedder(embedders.get());
      DocumentVectorReuse reuse = factor >= reuseFrom ? new DocumentVectorReuse(meter) : null;
      Embedder timed = reuse == null ? meter : reuse;
      try (EvalSystem system = systemFactory.apply(stages == null ? timed : stages.wrap(timed))) {
        progress.start("x" + factor + " ingest " + system.name(), 1);
        // a crashed earlier run may have left the namespace behind in a shared store
        system.forget(ns);
        meter.reset();
        long t0 = System.nanoTime();
        system.ingest(ns, sessions);
        long ingestNanos = System.nanoTime() - t0;
        MeteredEmbedder.Use ingestUse = meter.use();
        double ingestS = ingestNanos / 1e9;
        progress.step();
        progress.done(texts.size() + " turns in " + String.format("%.1fs", ingestS) + ", "
            + ingestUse.texts() + " texts embedded");
        if (reuse != null) {
          reuse.clear();
        }
        JitWatch jit = JitWatch.start();
        Instant warm0 = Instant.now();
        double jit0 = jitMs.getAsDouble();
        WarmedUp warmed = warmUp(system, ns, warmQuestions);
        double warmupJitMs = jitMs.getAsDouble() - jit0;
        // The reference a recall is compared with, timed again in this scale's own minute: from one
        // process to the next the start-of-run timing moved by up to 40% while the recalls did not
        // (docs/measurements.md §6, round nineteen), so a ratio against it carried the machine's
        // drift. Timed before the window, not interleaved, so that the recalls run as before.
        // what else the process ran beside the reference embedding and the timed recalls: on the
        // quiet machine Lucene's process was slower as a whole, its lone embedding included (round
        // twenty-four, docs/measurements.md §6)
        ProcessCpu beside0 = ProcessCpu.mark();
        double queryEmbedBesideMs = medianQueryEmbedding(questions, stages);
        progress.start("x" + factor + " recall", questions.size());
        ProcessCpu cpu0 = ProcessCpu.mark();
        Instant window0 = Instant.now();
        double[] recallMs = new double[questions.size()];
        LycheeSystem staged = stages != null && system instanceof LycheeSystem l ? l : null;
        if (staged != null) {
          stages.reset();
        }
        for (int i = 0; i < questions.size(); i++) {
          long q0 = System.nanoTime();
          if (staged != null) {
            stages.begin();
            staged.recall(ns, questions.get(i), 10, stages);
            stages.end();
          } else {
            system.recall(ns, questions.get(i), 10);
          }
          recallMs[i] = (System.nanoTime() - q0) / 1e6;
          progress.step();
        }
        Instant window1 = Instant.now();
        ProcessCpu cpu1 = ProcessCpu.mark();
        if (staged != null) {
          stageTables.add(stages.table(system.name() + " x" + factor));
        }
        progress.done("p50 " + String.format("%.1f ms", percentile(recallMs, 50)));
        // measured after the timed recalls, not before: the forced collections let G1 shrink the heap
        // to a few hundred MB, and the timed window then paid young pauses that ingest never saw
        // (docs/measurements.md §6, round thirteen)
        double heapMb = heapAfterGc();
        // read after the collections' pauses, so that compilations under way at the window's end are in
        JitWatch.Span[] spans = jit.spans(warm0, window0, window1);
        Warmup warm = new Warmup(warmed.recalls(), warmed.quiet(), warmupJitMs, spans[0], spans[1]);
        progress.log("x" + factor + ": " + warm.describe());
        ProcessCpu.Span besideCpu = ProcessCpu.between(beside0, cpu0);
        ProcessCpu.Span windowCpu = ProcessCpu.between(cpu0, cpu1);
        progress.log("x" + factor + " CPU beside q-embed@: " + besideCpu.describe());
        progress.log("x" + factor + " CPU in the timed window: " + windowCpu.describe());
        system.forget(ns);

        out.add(new Scale(factor, texts.size(), reuse == null ? texts.size() / ingestS : Double.NaN, embedderTurnsPerS,
            percentile(recallMs, 50), percentile(recallMs, 95), queryEmbedMs, heapMb,
            ingestUse.texts() / (double) texts.size(), ingestUse.shareOf(ingestNanos), queryEmbedBesideMs, warm, besideCpu, windowCpu));
      }
    }
    return out;
  }

  /**
   * The untimed recalls before a scale's window: {@code warmup} of them, then blocks while the JIT
   * is busy and the bound allows ({@link #warmUntilJitQuiet}).
   */
  private WarmedUp warmUp(EvalSystem system, String ns, List<String> warmQuestions) {
    if (warmQuestions.isEmpty()) {
      return new WarmedUp(0, false);
    }
    int done = 0;
    for (; done < warmup; done++) {
      system.recall(ns, warmQuestions.get(done % warmQuestions.size()), 10);
    }
    int quietBlocks = 0;
    while (done < warmupMax) {
      double c0 = jitMs.getAsDouble();
      long t0 = System.nanoTime();
      for (int end = Math.min(warmupMax, done + WARMUP_BLOCK); done < end; done++) {
        system.recall(ns, warmQuestions.get(done % warmQuestions.size()), 10);
      }
      quietBlocks = jitMs.getAsDouble() - c0 <= QUIET_SHARE * (System.nanoTime() - t0) / 1e6 ? quietBlocks + 1 : 0;
      // two in a row: the JIT's clock counts a compilation when it ends, so one block may read quiet
      // while C2 is still compiling a large method (x20 memory at load 20: quiet after 40 recalls, yet
      // 18 compilations started in the timed window; docs/measurements.md §6, round twenty-three)
      if (quietBlocks == QUIET_BLOCKS) {
        return new WarmedUp(done, true);
      }
    }
    return new WarmedUp(done, false);
  }

  /** How many warm-up recalls ran, and whether the last block was quiet. */
  private record WarmedUp(int recalls, boolean quiet) {}

  /** Median milliseconds of the reference embedder's query embedding over {@code questions}. */
  private double medianQueryEmbedding(List<String> questions) {
    return medianQueryEmbedding(questions, null);
  }

  /** The same, handing every wall and CPU time to {@code stages} when not null. */
  private double medianQueryEmbedding(List<String> questions, RecallStages stages) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] queryMs = new double[questions.size()];
    double[] cpuMs = new double[questions.size()];
    for (int i = 0; i < questions.size(); i++) {
      long c0 = threads.getCurrentThreadCpuTime();
      long q0 = System.nanoTime();
      referenceEmbedder.embedQuery(questions.get(i));
      queryMs[i] = (System.nanoTime() - q0) / 1e6;
      cpuMs[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
    }
    if (stages != null) {
      stages.alone(queryMs, cpuMs);
    }
    return percentile(queryMs, 50);
  }

  /** Nearest-rank percentile. */
  public static double percentile(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double heapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0);
  }
}
