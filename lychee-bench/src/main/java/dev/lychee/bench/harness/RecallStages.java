package dev.lychee.bench.harness;

import dev.lychee.api.Candidate;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RouteRanking;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits the wall time of recalls into the pipeline's stages, from the hooks the pipeline calls
 * ({@link RecallObserver}) and the query batch of the embedder it wraps ({@link #wrap}): planning
 * (up to the query batch), the query embedding and its texts, each channel, route scoring (merge,
 * boosts, source windows, final score), fusion, reranking, selection, and the rest (evidence
 * objects and the caller's serialisation). A stage's time is the time from the previous mark to
 * its own, so the stages add up to the wall time of a sequential pipeline; when channels overlap
 * the query embedding (issue 21), a channel that ends before the embedding is charged from the
 * previous mark and the embedding only with what was left of it. The query embedding runs from the
 * recall's first query batch to its last (the question goes ahead of the plan since round twenty-two,
 * the plan's other texts, if any, follow). Beside the stages the table sets the batches' own wall and
 * CPU time (of the thread that ran them) against the same embedding timed alone ({@link #alone}),
 * mean and median of each, so that what slows the embedding inside a recall shows: waiting for a
 * core (wall above CPU) or more work for the same text (CPU above the one alone). One recall at a
 * time ({@link #begin}, then {@link #end}); the embedder may be called from another thread.
 */
public final class RecallStages implements RecallObserver {
  private final Map<String, Double> totalsMs = new LinkedHashMap<>();
  private int recalls;
  private long queryTexts;
  private long t0;
  private long last;
  private volatile long queryStart;
  private volatile long queryEnd;
  private int texts;
  /** The recall's query batches: wall and CPU time of the threads that ran them. */
  private long batchWallNanos;
  private long batchCpuNanos;
  private final List<Double> batchWallMs = new ArrayList<>();
  private final List<Double> batchCpuMs = new ArrayList<>();
  private double[] aloneWallMs = new double[0];
  private double[] aloneCpuMs = new double[0];
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private long lastPick;
  private long reranked;
  /** The stages of the recall under way, in ms. */
  private final Map<String, Double> currentMs = new LinkedHashMap<>();
  /** Every recall so far: its wall time and stages, so the slowest can be shown apart. */
  private final List<Recall> each = new ArrayList<>();

  /** One recall's number (from 0 since the last {@link #reset}), wall time and stages in ms. */
  public record Recall(int number, double wallMs, Map<String, Double> stagesMs) {}

  /** The embedder the timed system must use, so that its query batches are marked. */
  public Embedder wrap(Embedder embedder) {
    return new EmbedderDecorator(embedder) {
      @Override
      public List<float[]> embedDocuments(List<String> texts) {
        return delegate.embedDocuments(texts);
      }

      @Override
      public List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
        return delegate.embedDocuments(texts, priority);
      }

      @Override
      public List<float[]> embedQueries(List<String> batch) {
        long cpu = CPU.getCurrentThreadCpuTime();
        long start = batchStarted();
        try {
          return delegate.embedQueries(batch);
        } finally {
          batchEnded(start, cpu, batch.size());
        }
      }

      @Override
      public float[] embedQuery(String query) {
        long cpu = CPU.getCurrentThreadCpuTime();
        long start = batchStarted();
        try {
          return delegate.embedQuery(query);
        } finally {
          batchEnded(start, cpu, 1);
        }
      }
    };
  }

  /** Marks a query batch's start: the recall's first batch starts the query-embedding stage. */
  private long batchStarted() {
    long now = System.nanoTime();
    if (queryStart == 0) {
      queryStart = now;
    }
    return now;
  }

  /** Marks a query batch's end (the last one ends the stage) and adds its wall and CPU time. */
  private void batchEnded(long start, long cpuStart, int size) {
    long now = System.nanoTime();
    long cpu = CPU.getCurrentThreadCpuTime();
    synchronized (this) {
      texts += size;
      batchWallNanos += now - start;
      batchCpuNanos += cpu - cpuStart;
    }
    queryEnd = now;
  }

  /**
   * The same query embedding timed alone (the embedder called on its own, one question after another,
   * right before the recalls), wall and CPU ms per question, so that the table sets the recall's
   * batches beside it like for like: mean against mean, median against median, wall and CPU.
   */
  public void alone(double[] wallMs, double[] cpuMs) {
    this.aloneWallMs = wallMs.clone();
    this.aloneCpuMs = cpuMs.clone();
  }

  /** Starts one recall's clock. */
  public void begin() {
    queryStart = 0;
    queryEnd = 0;
    synchronized (this) {
      texts = 0;
      batchWallNanos = 0;
      batchCpuNanos = 0;
    }
    lastPick = 0;
    reranked = 0;
    currentMs.clear();
    t0 = System.nanoTime();
    last = 0;
  }

  /** Ends the recall begun last, after the caller serialised its evidence. */
  public void end() {
    long now = System.nanoTime();
    long end = lastPick > 0 ? lastPick : reranked;
    if (end > 0) {
      add("selection (MMR)", end - reranked);
    }
    add("evidence + serialisation", now - (end > 0 ? end : last));
    each.add(new Recall(recalls, (now - t0) / 1e6, Map.copyOf(currentMs)));
    recalls++;
    synchronized (this) {
      queryTexts += texts;
      batchWallMs.add(batchWallNanos / 1e6);
      batchCpuMs.add(batchCpuNanos / 1e6);
    }
  }

  private long mark(String stage) {
    long now = System.nanoTime();
    if (last == 0) { // the first channel: planning and the query batch happened before it
      long qs = queryStart > 0 ? queryStart : now;
      long qe = queryEnd > 0 ? Math.min(queryEnd, now) : qs;
      add("planning + variants", qs - t0);
      add("query embedding", qe - qs);
      last = qe;
    }
    add(stage, now - last);
    last = now;
    return now;
  }

  private void add(String stage, long nanos) {
    totalsMs.merge(stage, nanos / 1e6, Double::sum);
    currentMs.merge(stage, nanos / 1e6, Double::sum);
  }

  @Override
  public void channel(RecallRoute route, String channel, List<Candidate> candidates) {
    mark("channel " + channel);
  }

  @Override
  public void route(RouteRanking ranking) {
    mark("route scoring + windows");
  }

  @Override
  public void fused(List<Candidate> pool) {
    mark("fusion");
  }

  /**
   * False: a timer has no use for the reranker's features, and building them for every candidate
   * would charge the timed recalls with work an unobserved recall does not do (round twenty-three).
   */
  @Override
  public boolean wantsFeatures() {
    return false;
  }

  @Override
  public void reranked(List<Candidate> pool) {
    reranked = mark("rerank");
  }

  @Override
  public void picked(int step, Candidate candidate, double relevance, double maxSimilarity, double value) {
    lastPick = System.nanoTime();
  }

  /** Forgets every recall measured so far. */
  public void reset() {
    totalsMs.clear();
    each.clear();
    recalls = 0;
    queryTexts = 0;
    batchWallMs.clear();
    batchCpuMs.clear();
  }

  /** Mean milliseconds per recall of each stage, in pipeline order. */
  public Map<String, Double> meanMs() {
    Map<String, Double> out = new LinkedHashMap<>();
    totalsMs.forEach((k, v) -> out.put(k, recalls == 0 ? Double.NaN : v / recalls));
    return out;
  }

  /**
   * The {@code n} slowest recalls since the last {@link #reset}, slowest first: what a p95 over a
   * few dozen recalls is made of (its nearest rank is the second or third slowest of 40).
   */
  public List<Recall> slowest(int n) {
    return each.stream().sorted(Comparator.comparingDouble(Recall::wallMs).reversed()).limit(n).toList();
  }

  /** Query texts embedded per recall. */
  public double queryTextsPerRecall() {
    return recalls == 0 ? Double.NaN : queryTexts / (double) recalls;
  }

  /** One line: mean and median of wall and CPU ms, and the share of the wall the thread was on a CPU. */
  private static String likeForLike(String what, double[] wallMs, double[] cpuMs) {
    if (wallMs.length == 0) {
      return "";
    }
    double wall = Arrays.stream(wallMs).average().orElse(Double.NaN);
    double cpu = Arrays.stream(cpuMs).average().orElse(Double.NaN);
    return String.format(Locale.ROOT, "  %-34s wall mean %.2f / median %.2f ms, CPU mean %.2f / median %.2f ms (%.0f%%)%n",
        what, wall, SpeedRun.percentile(wallMs, 50), cpu, SpeedRun.percentile(cpuMs, 50), 100 * cpu / wall);
  }

  /** The means as a two-column table, with the sum and the texts per recall. */
  public String table(String title) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nrecall stages, %s (%d recalls, mean ms)%n", title, recalls));
    double sum = 0;
    for (Map.Entry<String, Double> e : meanMs().entrySet()) {
      sb.append(String.format(Locale.ROOT, "  %-34s %8.2f%n", e.getKey(), e.getValue()));
      sum += e.getValue();
    }
    sb.append(String.format(Locale.ROOT, "  %-34s %8.2f%n", "sum", sum));
    sb.append(String.format(Locale.ROOT, "  %-34s %8.2f%n", "query texts embedded per recall", queryTextsPerRecall()));
    sb.append(likeForLike("query batches in the recalls", batchWallMs.stream().mapToDouble(d -> d).toArray(),
        batchCpuMs.stream().mapToDouble(d -> d).toArray()));
    sb.append(likeForLike("one query embedding alone", aloneWallMs, aloneCpuMs));
    for (Recall r : slowest(3)) {
      // its three largest stages: where a slow recall's time went
      String top = r.stagesMs().entrySet().stream()
          .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(3)
          .map(e -> String.format(Locale.ROOT, "%s %.1f", e.getKey(), e.getValue()))
          .collect(java.util.stream.Collectors.joining(", "));
      sb.append(String.format(Locale.ROOT, "  slow: recall #%d %.1f ms (%s)%n", r.number(), r.wallMs(), top));
    }
    return sb.toString();
  }
}
