package dev.lychee.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.spi.Embedder;
import dev.lychee.bench.harness.AppendLatencyRun;
import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.JitWatch;
import dev.lychee.bench.harness.ParallelIngest;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.ProcessCpu;
import dev.lychee.bench.harness.SpeedRun;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.systems.StoreChoice;
import dev.lychee.bench.systems.SystemCatalog;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.vector.Vectors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code lychee eval speed}: ingest and recall speed as one namespace grows (evaluation.md §4). */
@Command(name = "speed", mixinStandardHelpOptions = true,
    description = "Ingest turns/s beside the embedder alone, recall p50/p95 beside one query embedding, heap after ingest and recall, per scale factor.")
final class SpeedCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, required = true, description = "LoCoMo JSON file.")
  Path data;

  @Option(names = "--conversation", description = "sample_id of the conversation to replicate (default: the first).")
  String conversation;

  @Option(names = "--scale", defaultValue = "1,5,20", description = "Replication factors (default: ${DEFAULT-VALUE}).")
  String scale;

  @Option(names = "--system", defaultValue = "lychee", description = "System to time (default: ${DEFAULT-VALUE}).")
  String system;

  @Option(names = "--store", defaultValue = "memory",
      description = "Where lychee keeps records and vectors: memory, sqlite, lucene (temporary files) or postgres"
          + " (LYCHEE_PG_URL, schema lychee_bench); a comma list runs each in turn (default: ${DEFAULT-VALUE}).")
  String store;

  @Option(names = "--writers", defaultValue = "1",
      description = "Also time ingest with this many instances writing to the store at once, each into its own"
          + " namespace, beside one writer alone (default: ${DEFAULT-VALUE} = skip).")
  int writers;

  @Option(names = "--writers-scale", defaultValue = "1",
      description = "Replication factor each writer ingests in the --writers run (default: ${DEFAULT-VALUE}).")
  int writersScale;

  @Option(names = "--queries", defaultValue = "100", description = "Questions timed per scale (default: ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--warmup", defaultValue = "20",
      description = "Untimed recalls per scale before timing, at least, with questions after the timed ones"
          + " (default: ${DEFAULT-VALUE}).")
  private int warmup;

  @Option(names = "--warmup-max", defaultValue = "1000",
      description = "After --warmup recalls, go on warming up in blocks of 10 until two blocks in a row in each of"
          + " which the JIT's compiler threads were busy (on a core or waiting for one) for at most 5 percent of its wall"
          + " time (where the OS's threads cannot be read: compiled for at most 5 percent of it), up to this many warm-up recalls per scale; equal to --warmup:"
          + " exactly --warmup (default: ${DEFAULT-VALUE}).")
  private int warmupMax;

  @Option(names = "--reuse-vectors-from", defaultValue = "0",
      description = "From this scale factor on, serve the document vectors of copies 2..N from those copy 1 received"
          + " (ingest then costs one copy's embeddings and its rate is not reported; every recall query is still"
          + " embedded fresh). 0: never (default: ${DEFAULT-VALUE}).")
  int reuseVectorsFrom;

  @Option(names = "--json", description = "Write the result JSON here.")
  Path json;

  @Option(names = "--encoder-delay-ms", defaultValue = "0",
      description = "Also time append with an encoder that stands for an LLM: the offline one behind this delay per segment (0: skip; default: ${DEFAULT-VALUE}).")
  long encoderDelayMs;

  @Option(names = "--stages",
      description = "Also print where each timed recall's wall time went: planning, the query embedding and its texts,"
          + " each channel, route scoring, fusion, rerank, selection, serialisation (mean ms per recall).")
  boolean stages;

  @Option(names = "--no-append", description = "Skip the append latency table (sync vs background encoding).")
  boolean noAppend;

  /** The append table's rows: the default async settings, and each with one option switched back. */
  private static final List<String> APPEND_MODES = List.of("sync", "async", "async+yield", "async-fgseg", "async-serial");

  @Option(names = "--append-modes", defaultValue = "sync,async,async+yield,async-fgseg,async-serial",
      description = "Rows of the append table to time, comma-separated, in this order: sync, async (the defaults),"
          + " async+yield (backgroundYield 200 ms), async-fgseg (segmentInBackground off), async-serial"
          + " (embedWhileStoring off) (default: ${DEFAULT-VALUE}).")
  String appendModes;

  @Option(names = "--skip-recall",
      description = "Time only the append table (no ingest or recall), e.g. to profile appends alone.")
  boolean skipRecall;

  @Override
  public Integer call() throws Exception {
    List<StoreChoice> stores = new java.util.ArrayList<>();
    for (String name : store.split(",")) {
      stores.add(StoreChoice.parse(name));
    }
    if (writers < 1 || writersScale < 1) {
      throw new IllegalArgumentException("--writers and --writers-scale must be >= 1");
    }
    List<Integer> factors = Csv.positiveInts(scale, "--scale");
    List<LocomoConversation> all = LocomoLoader.load(data);
    LocomoConversation conv = conversation == null ? all.get(0) : all.stream()
        .filter(c -> c.sampleId().equals(conversation)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no conversation " + conversation + " in " + data));
    // Two separate embedders without caches: one inside the timed system, one for the reference.
    Embedder reference = parent.uncachedEmbedderFactory().get();
    ObjectNode byStore = new ObjectMapper().createObjectNode();
    for (StoreChoice storeChoice : stores) {
      String storeName = storeChoice.name().toLowerCase(Locale.ROOT);
      java.util.function.Function<Embedder, dev.lychee.bench.systems.EvalSystem> systems =
          embedder -> new SystemCatalog(() -> embedder, false).store(storeChoice).create(system);
      java.util.function.Supplier<dev.lychee.bench.systems.EvalSystem> factory =
          () -> systems.apply(parent.uncachedEmbedderFactory().get());
      if (warmup < 0 || warmupMax < warmup) {
        throw new IllegalArgumentException("--warmup must be >= 0 and --warmup-max >= --warmup: " + warmup + ", "
            + warmupMax);
      }
      SpeedRun run = new SpeedRun(systems, parent.uncachedEmbedderFactory(), reference, queries, warmup,
          Progress.forCurrentProcess(System.err)).warmUntilJitQuiet(warmupMax, JitWatch::compilerBusyMs);
      if (reuseVectorsFrom > 0) {
        run.reuseDocumentVectorsFrom(reuseVectorsFrom);
      }
      if (stages) {
        run.timeStages(new dev.lychee.bench.harness.RecallStages());
      }
      if (skipRecall) {
        AppendTimes times = appendTimes(conv, storeChoice, reference);
        System.out.print(appendTable(conv.sampleId(), storeName, times));
        ObjectNode node = new ObjectMapper().createObjectNode();
        node.put("vector_kernel", Vectors.kernel());
        node.set("append", appendJson(times));
        byStore.set(storeName, node);
        continue;
      }
      List<SpeedRun.Scale> scales = run.run(conv, factors);
      System.out.print(table(conv.sampleId(), system + " (" + storeName + " store)", scales));
      run.stageTables().forEach(t -> System.out.print(t.replace("recall stages, ", "recall stages, " + storeName + " store, ")));
      byStore.set(storeName, new ObjectMapper().readTree(json(scales)));
      if (!noAppend) {
        AppendTimes times = appendTimes(conv, storeChoice, reference);
        System.out.print(appendTable(conv.sampleId(), storeName, times));
        ((ObjectNode) byStore.get(storeName)).set("append", appendJson(times));
      }
      if (writers > 1) {
        ParallelIngest parallel = new ParallelIngest(factory);
        List<ParallelIngest.Result> results = List.of(parallel.run(conv, writersScale, 1),
            parallel.run(conv, writersScale, writers));
        System.out.print(writersTable(storeName, results));
        ObjectNode w = ((ObjectNode) byStore.get(storeName)).putObject("writers");
        for (ParallelIngest.Result r : results) {
          w.put(String.valueOf(r.writers()), round(r.turnsPerS()));
        }
      }
    }
    if (json != null) {
      ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
      AtomicFiles.write(json, m.writeValueAsString(stores.size() == 1 ? byStore.elements().next() : byStore) + "\n");
      System.out.println("JSON written to " + json);
    }
    return 0;
  }

  static String writersTable(String store, List<ParallelIngest.Result> results) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%ningest with several writers at once (%s store)%n", store));
    sb.append(String.format(Locale.ROOT, "%8s %8s %9s %14s%n", "writers", "turns", "wall s", "total turns/s"));
    for (ParallelIngest.Result r : results) {
      sb.append(String.format(Locale.ROOT, "%8d %8d %9.1f %14.1f%n", r.writers(), r.turns(), r.wallSeconds(), r.turnsPerS()));
    }
    return sb.toString();
  }

  /** One document embedding's time beside the append rows timed against it. */
  record AppendTimes(double embedMs, List<AppendLatencyRun.Row> rows) {}

  private AppendTimes appendTimes(LocomoConversation conv, StoreChoice storeChoice, Embedder reference) throws Exception {
    if (encoderDelayMs < 0) {
      throw new IllegalArgumentException("--encoder-delay-ms must be >= 0: " + encoderDelayMs);
    }
    List<dev.lychee.bench.systems.EvalSession> sessions = dev.lychee.bench.harness.LocomoSessions.of(conv);
    List<String> texts = sessions.stream().flatMap(s -> s.turns().stream()).map(t -> t.text()).limit(200).toList();
    double embedMs = AppendLatencyRun.oneDocumentEmbedMs(reference, texts);
    AppendLatencyRun run = new AppendLatencyRun(parent.uncachedEmbedderFactory(), storeChoice);
    List<AppendLatencyRun.Row> rows = new java.util.ArrayList<>();
    List<Long> delays = encoderDelayMs > 0 ? List.of(0L, encoderDelayMs) : List.of(0L);
    List<String> modes = List.of(appendModes.split(","));
    for (String m : modes) {
      if (!APPEND_MODES.contains(m)) {
        throw new IllegalArgumentException("--append-modes: unknown row '" + m + "' (" + String.join(", ", APPEND_MODES) + ")");
      }
    }
    for (long delay : delays) {
      for (String m : modes) {
        IngestConfig.Builder ingest = IngestConfig.builder().encodeMode(m.equals("sync")
            ? IngestConfig.EncodeMode.SYNC : IngestConfig.EncodeMode.ASYNC);
        switch (m) {
          // background encoding that steps aside for appends (IngestConfig.backgroundYield)
          case "async+yield" -> ingest.backgroundYield(Duration.ofMillis(200));
          // segmentation on the caller's thread (IngestConfig.segmentInBackground off, as before the option)
          case "async-fgseg" -> ingest.segmentInBackground(false);
          // the turns embedded after their commit (IngestConfig.embedWhileStoring off, as before the option)
          case "async-serial" -> ingest.embedWhileStoring(false);
          default -> { }
        }
        rows.add(run.run(sessions, m, ingest, delay));
      }
    }
    return new AppendTimes(embedMs, List.copyOf(rows));
  }

  static String appendTable(String sample, String store, AppendTimes times) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%nappend latency (one turn per call, %s store, %s): one document embedding %.1f ms%n", store, sample, times.embedMs()));
    sb.append(String.format(Locale.ROOT, "%-12s %-14s %7s %9s %9s %9s %10s %10s %8s%n",
        "mode", "encoder", "appends", "p50", "p95", "max", "to idle", "total", "segments"));
    for (AppendLatencyRun.Row r : times.rows()) {
      sb.append(String.format(Locale.ROOT, "%-12s %-14s %7d %7.1fms %7.1fms %7.0fms %8.0fms %8.0fms %8d%n", r.mode(),
          r.encoderDelayMs() == 0 ? "offline" : "llm-like+" + r.encoderDelayMs() + "ms", r.appends(), r.p50Ms(), r.p95Ms(),
          r.maxMs(), r.idleMs(), r.totalMs(), r.segments()));
    }
    return sb.toString();
  }

  /**
   * {@code {"document_embed_ms":x,"rows":[{"mode","encoder_delay_ms","appends","p50_ms","p95_ms","max_ms","idle_ms",
   * "total_ms","segments"}]}}: the append table, so that a {@code --skip-recall} run has JSON to write too.
   */
  static ObjectNode appendJson(AppendTimes times) {
    ObjectNode out = new ObjectMapper().createObjectNode();
    out.put("document_embed_ms", round(times.embedMs()));
    com.fasterxml.jackson.databind.node.ArrayNode rows = out.putArray("rows");
    for (AppendLatencyRun.Row r : times.rows()) {
      ObjectNode n = rows.addObject();
      n.put("mode", r.mode());
      n.put("encoder_delay_ms", r.encoderDelayMs());
      n.put("appends", r.appends());
      n.put("p50_ms", round(r.p50Ms()));
      n.put("p95_ms", round(r.p95Ms()));
      n.put("max_ms", round(r.maxMs()));
      n.put("idle_ms", round(r.idleMs()));
      n.put("total_ms", round(r.totalMs()));
      n.put("segments", r.segments());
    }
    return out;
  }

  static String table(String sample, String system, List<SpeedRun.Scale> scales) {
    // the dot-product kernel moves the scans' time (not their scores): a table says which one ran
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nspeed: %s on %s, vector kernel %s%n", system,
        sample, Vectors.kernel()));
    sb.append(String.format(Locale.ROOT, "%6s %7s %12s %12s %9s %9s %10s %10s %11s %8s %10s %9s%n",
        "scale", "turns", "ingest t/s", "embed t/s", "rec p50", "rec p95", "q-embed", "q-embed@", "p50/p95 x", "heap MB",
        "emb/turn", "in-embed"));
    for (SpeedRun.Scale s : scales) {
      // a scale whose document vectors were reused has no ingest rate to show
      String ingest = Double.isNaN(s.ingestTurnsPerS()) ? "(reused)" : String.format(Locale.ROOT, "%.1f", s.ingestTurnsPerS());
      sb.append(String.format(Locale.ROOT, "%6d %7d %12s %12.1f %7.1fms %7.1fms %8.1fms %8.1fms %5.1f/%4.1f %8.0f %10.2f %8.0f%%%n",
          s.factor(), s.turns(), ingest, s.embedderTurnsPerS(), s.recallP50Ms(), s.recallP95Ms(),
          s.queryEmbedMs(), s.queryEmbedBesideMs(), s.p50Ratio(), s.p95Ratio(), s.heapMb(), s.embeddingsPerTurn(),
          100 * s.embedderShare()));
    }
    sb.append("q-embed: one query embedding timed at the start of the run; q-embed@: timed again at that scale"
        + " right before its recalls; p50/p95 x: the recall over q-embed@").append(System.lineSeparator());
    for (SpeedRun.Scale s : scales) {
      sb.append("x").append(s.factor()).append(": ").append(s.warmup().describe()).append(System.lineSeparator());
    }
    for (SpeedRun.Scale s : scales) {
      sb.append("x").append(s.factor()).append(" CPU beside q-embed@: ").append(s.besideCpu().describe())
          .append(System.lineSeparator());
      sb.append("x").append(s.factor()).append(" CPU in the timed window: ").append(s.windowCpu().describe())
          .append(System.lineSeparator());
    }
    return sb.toString();
  }

  /**
   * {@code {"vector_kernel":"simd","scales":{"1":{"ingest_turns_per_s":x,"embedder_turns_per_s":x,"recall_ms":{"p50":x,"p95":x},
   * "query_embed_ms":x,"query_embed_beside_recalls_ms":x,"heap_mb":x,"ingest_embeddings_per_turn":x,"ingest_embedder_share":x,
   * "warmup":{"recalls":n,"jit_quiet":b,"jit_ms":x,"compilations":n,"window_compilations":n,"window_compile_ms":x},
   * "cpu":{"beside_query_embed":span,"window":span}}}}} where a span is {@code {"wall_ms":x,"process_cores":x,
   * "threads":{"main":cores,..},"elsewhere_cores":x,"elsewhere_threads":{"C2 CompilerThre":cores,..},
   * "run_queue_cores":x,"caller_run_queue_cores":x,"collections":n,"collection_ms":x}} (elsewhere_threads by
   * the OS's thread names, empty and the run queue NaN where the OS's threads cannot be read);
   * the share is a fraction of the ingest wall time; a compilation count of -1 is unknown (no JFR).
   */
  static String json(List<SpeedRun.Scale> scales) throws Exception {
    ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = m.createObjectNode();
    root.put("vector_kernel", Vectors.kernel());
    ObjectNode byScale = root.putObject("scales");
    for (SpeedRun.Scale s : scales) {
      ObjectNode n = byScale.putObject(String.valueOf(s.factor()));
      if (Double.isNaN(s.ingestTurnsPerS())) {
        n.putNull("ingest_turns_per_s");
        n.put("document_vectors_reused", true);
      } else {
        n.put("ingest_turns_per_s", round(s.ingestTurnsPerS()));
      }
      n.put("embedder_turns_per_s", round(s.embedderTurnsPerS()));
      ObjectNode r = n.putObject("recall_ms");
      r.put("p50", round(s.recallP50Ms()));
      r.put("p95", round(s.recallP95Ms()));
      n.put("query_embed_ms", round(s.queryEmbedMs()));
      n.put("query_embed_beside_recalls_ms", round(s.queryEmbedBesideMs()));
      n.put("heap_mb", round(s.heapMb()));
      n.put("ingest_embeddings_per_turn", round(s.embeddingsPerTurn()));
      n.put("ingest_embedder_share", round(s.embedderShare()));
      ObjectNode w = n.putObject("warmup");
      w.put("recalls", s.warmup().recalls());
      w.put("jit_quiet", s.warmup().quiet());
      w.put("jit_ms", round(s.warmup().jitMs()));
      w.put("compilations", s.warmup().duringWarmup().compilations());
      w.put("window_compilations", s.warmup().duringWindow().compilations());
      w.put("window_compile_ms", round(s.warmup().duringWindow().compileMs()));
      ObjectNode cpu = n.putObject("cpu");
      span(cpu.putObject("beside_query_embed"), s.besideCpu());
      span(cpu.putObject("window"), s.windowCpu());
    }
    return m.writeValueAsString(root) + "\n";
  }

  /** One span of {@link ProcessCpu}: CPU in cores (CPU time over the span's wall time). */
  private static void span(ObjectNode n, ProcessCpu.Span span) {
    n.put("wall_ms", round(span.wallMs()));
    n.put("process_cores", round(span.processCpuMs() / span.wallMs()));
    ObjectNode threads = n.putObject("threads");
    span.threads().forEach(g -> threads.put(g.name(), round(g.cpuMs() / span.wallMs())));
    n.put("elsewhere_cores", round(span.elsewhereMs() / span.wallMs()));
    ObjectNode elsewhere = n.putObject("elsewhere_threads");
    span.elsewhereThreads().forEach(g -> elsewhere.put(g.name(), round(g.cpuMs() / span.wallMs())));
    n.put("run_queue_cores", round(span.runQueueMs() / span.wallMs()));
    n.put("caller_run_queue_cores", round(span.callerRunQueueMs() / span.wallMs()));
    n.put("collections", span.collections());
    n.put("collection_ms", round(span.collectionMs()));
  }

  private static double round(double v) {
    return Math.round(v * 1000d) / 1000d;
  }
}
