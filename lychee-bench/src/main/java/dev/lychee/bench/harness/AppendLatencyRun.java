package dev.lychee.bench.harness;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.lychee.api.Encoding;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.ScratchDirectory;
import dev.lychee.bench.systems.StoreChoice;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.encode.OfflineEncoder;
import dev.lychee.core.ingest.IngestConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Caller-visible {@code append} latency, one turn per call as an agent appends, with synchronous
 * and background encoding, beside the latency of embedding one document; and the time from the
 * last {@code flush} returning until every segment is encoded ("time to idle").
 *
 * <p>Besides the offline encoder, an encoder that stands for an LLM can be timed: the offline
 * encoder behind a fixed delay per segment ({@code --encoder-delay-ms}), because no LLM is
 * reachable from the benchmark machine. Rows with a delay say so.
 */
public final class AppendLatencyRun {

  /**
   * One measured configuration.
   *
   * @param mode sync, async, or async+yield (background encoding that steps aside for appends)
   * @param encoderDelayMs the simulated per-segment LLM delay (0: the offline encoder as it is)
   * @param appends how many append calls were timed
   * @param p50Ms median append latency
   * @param p95Ms 95th percentile append latency
   * @param maxMs the slowest append
   * @param idleMs time from the last flush until every segment was encoded
   * @param totalMs time from the first append until idle
   * @param segments segments encoded
   */
  public record Row(String mode, long encoderDelayMs, int appends, double p50Ms, double p95Ms, double maxMs,
      double idleMs, double totalMs, int segments) {}

  private static final String NS = "bench-append";
  private final Supplier<Embedder> embedders;
  private final StoreChoice store;

  public AppendLatencyRun(Supplier<Embedder> embedders, StoreChoice store) {
    this.embedders = embedders;
    this.store = store;
  }

  /** The median latency of embedding one turn text as a document, over {@code texts}. */
  public static double oneDocumentEmbedMs(Embedder embedder, List<String> texts) {
    embedder.embedDocuments(List.of(texts.get(0)));
    double[] ms = new double[texts.size()];
    for (int i = 0; i < texts.size(); i++) {
      long t0 = System.nanoTime();
      embedder.embedDocuments(List.of(texts.get(i)));
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    return percentile(ms, 0.5);
  }

  /** Runs one encode mode with every other ingest setting at its default, on a fresh memory. */
  public Row run(List<EvalSession> sessions, IngestConfig.EncodeMode mode, long encoderDelayMs) throws Exception {
    return run(sessions, mode.name().toLowerCase(java.util.Locale.ROOT), IngestConfig.builder().encodeMode(mode),
        encoderDelayMs);
  }

  /**
   * Runs one configuration on a fresh memory.
   *
   * @param name the row's name in the table ("async+yield", "async-fgseg"...)
   * @param ingest the ingest settings the row times (resuming on open is switched off)
   */
  public Row run(List<EvalSession> sessions, String name, IngestConfig.Builder ingest, long encoderDelayMs)
      throws Exception {
    try (ScratchDirectory dir = ScratchDirectory.create("lychee-append-")) {
      return run(sessions, name, ingest, encoderDelayMs, dir.path());
    }
  }

  private Row run(List<EvalSession> sessions, String name, IngestConfig.Builder ingest, long encoderDelayMs, Path dir)
      throws Exception {
    Embedder embedder = embedders.get();
    Encoder encoder = new DelayedEncoder(new OfflineEncoder(EncodingConfig.defaults()), encoderDelayMs);
    LycheeConfig config = LycheeConfig.builder().ingest(ingest.resumeOnOpen(false).build()).build();
    List<Module> modules = new ArrayList<>();
    modules.add(new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(embedder);
        bind(Encoder.class).toInstance(encoder);
      }
    });
    Module storeModule = store.module(dir);
    if (storeModule != null) {
      modules.add(storeModule);
    }
    try (Lychee lychee = Lychee.create(config, modules.toArray(Module[]::new))) {
      // a store on a server (PostgreSQL) outlives the run: start from an empty namespace, or the
      // appends of an earlier row would be no-ops (the same turn again) and time nothing
      lychee.forget(NS);
      List<Double> latencies = new ArrayList<>();
      long start = System.nanoTime();
      for (EvalSession s : sessions) {
        for (Turn t : s.turns()) {
          long t0 = System.nanoTime();
          lychee.append(NS, s.id(), s.date(), List.of(t));
          latencies.add((System.nanoTime() - t0) / 1e6);
        }
        lychee.flush(NS, s.id());
      }
      long flushed = System.nanoTime();
      if (!lychee.awaitIdle(NS, Duration.ofHours(1))) {
        throw new IllegalStateException("background encoding did not finish within an hour");
      }
      long idle = System.nanoTime();
      double[] ms = latencies.stream().mapToDouble(Double::doubleValue).toArray();
      int segments = lychee.status(NS).segments(dev.lychee.api.SegmentState.ENCODED);
      lychee.forget(NS);
      return new Row(name, encoderDelayMs, ms.length, percentile(ms, 0.5),
          percentile(ms, 0.95), Arrays.stream(ms).max().orElse(0), (idle - flushed) / 1e6, (idle - start) / 1e6, segments);
    }
  }

  static double percentile(double[] values, double q) {
    double[] v = values.clone();
    Arrays.sort(v);
    if (v.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(q * v.length) - 1;
    return v[Math.max(0, Math.min(v.length - 1, i))];
  }

  /** The offline encoder behind a fixed delay, standing in for an LLM call; its name says which. */
  private static final class DelayedEncoder implements Encoder {
    private final Encoder inner;
    private final long delayMs;

    DelayedEncoder(Encoder inner, long delayMs) {
      this.inner = inner;
      this.delayMs = delayMs;
    }

    @Override
    public Encoding encode(Segment segment, ReferenceContext context) {
      if (delayMs > 0) {
        try {
          Thread.sleep(delayMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return inner.encode(segment, context);
    }

    @Override
    public String name() {
      // a delayed encoder stands for an LLM: AUTO would put it in the background
      return delayMs > 0 ? "simulated-llm" : inner.name();
    }
  }
}
