package dev.lychee.bench.qa;

import com.google.inject.AbstractModule;
import dev.lychee.api.Answer;
import dev.lychee.api.Question;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.metrics.AnswerText;
import dev.lychee.bench.systems.Ablation;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.answer.LlmAnswerGenerator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs LLM-judged question answering: for every variant and case, builds a fresh in-memory Lychee
 * whose encoder, planner and answerer run on the system model, ingests the sessions, asks every
 * question, grades each answer with the judge and scores it lexically. Cases run in parallel up to
 * the configured concurrency; each finished case is checkpointed, and cases already checkpointed
 * are loaded instead of run.
 *
 * <p>A case whose model calls fail (after the providers' own retries) is reported as failed and not
 * checkpointed, so the next run retries it; the other cases go on.
 */
public final class QaRunner {
  private final QaModels models;
  private final Embedder embedder;
  private final Function<String, LycheeConfig> retrievalConfigs;
  private final int k;
  private final int concurrency;
  private final Checkpoints checkpoints;
  private final Progress progress;

  /**
   * @param models the system and judge models
   * @param embedder the (offline) embedder, shared by every case
   * @param retrievalConfigs the Lychee configuration of a recall-harness system name ({@code lychee}
   *     or a retrieval ablation)
   * @param k evidence items per question
   * @param concurrency cases run at once, at least 1
   * @param checkpoints where finished cases are kept; null to keep none
   */
  public QaRunner(QaModels models, Embedder embedder, Function<String, LycheeConfig> retrievalConfigs, int k,
      int concurrency, Checkpoints checkpoints, Progress progress) {
    this.models = Objects.requireNonNull(models, "models");
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.retrievalConfigs = Objects.requireNonNull(retrievalConfigs, "retrievalConfigs");
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
    }
    this.k = k;
    this.concurrency = concurrency;
    this.checkpoints = checkpoints;
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  /** Runs every variant over every case. */
  public QaResult run(List<QaVariant> variants, List<QaCase> cases) {
    ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
      Thread t = new Thread(r, "lychee-qa");
      t.setDaemon(true);
      return t;
    });
    Map<QaVariant, List<Future<ConversationOutcome>>> futures = new LinkedHashMap<>();
    int total = variants.size() * cases.size();
    java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
    try {
      for (QaVariant v : variants) {
        List<Future<ConversationOutcome>> list = new ArrayList<>();
        for (QaCase c : cases) {
          list.add(pool.submit(() -> {
            ConversationOutcome o = checkpointed(v, c);
            progress.log(v.name() + " " + c.id() + " done (" + finished.incrementAndGet() + "/" + total + ")"
                + progressFigure(o));
            return o;
          }));
        }
        futures.put(v, list);
      }
      Map<String, List<ConversationOutcome>> outcomes = new LinkedHashMap<>();
      List<String> failures = new ArrayList<>();
      for (var e : futures.entrySet()) {
        List<ConversationOutcome> done = new ArrayList<>();
        for (int i = 0; i < e.getValue().size(); i++) {
          try {
            done.add(e.getValue().get(i).get());
          } catch (ExecutionException ex) {
            failures.add(e.getKey().name() + " " + cases.get(i).id() + ": " + message(ex.getCause()));
          }
        }
        outcomes.put(e.getKey().name(), done);
      }
      return new QaResult(outcomes, failures, models.sent(), models.cacheHits());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private ConversationOutcome checkpointed(QaVariant v, QaCase c) {
    if (checkpoints != null) {
      var saved = checkpoints.load(v.name(), c.id());
      if (saved.isPresent()) {
        return saved.get();
      }
    }
    ConversationOutcome o = runOne(v, c);
    if (checkpoints != null) {
      checkpoints.save(o);
    }
    return o;
  }

  ConversationOutcome runOne(QaVariant variant, QaCase c) {
    boolean offline = models.system() == null;
    CallMeter meter = new CallMeter(offline ? NO_MODEL : models.system());
    LycheeConfig config = configFor(variant, offline);
    Lychee.Builder builder = Lychee.builder().embedder(embedder).config(config);
    if (!offline) {
      builder.chatModel(meter);
    }
    Ablation.ofSystem(variant.retrieval()).overrides().forEach(builder::module);
    if (variant.summaries()) {
      Encoder override = new SummaryEncoder(meter);
      builder.module(new AbstractModule() {
        @Override
        protected void configure() {
          bind(Encoder.class).toInstance(override);
        }
      });
    }
    AnswerJudge judge = models.judge() == null ? null : new AnswerJudge(models.judge());
    String ns = c.id();
    try (Lychee lychee = builder.build()) {
      long start = System.nanoTime();
      int turns = 0;
      for (EvalSession s : c.sessions()) {
        lychee.append(ns, s.id(), s.date(), s.turns());
        lychee.flush(ns, s.id());
        turns += s.turns().size();
      }
      long buildMillis = (System.nanoTime() - start) / 1_000_000;
      CallMeter.Reading built = meter.read();
      List<StoredSegment> segments = lychee.store().segments(ns);
      int pending = (int) segments.stream().filter(s -> s.state() != SegmentState.ENCODED).count();
      int records = lychee.store().records(ns).size();
      List<QuestionOutcome> out = new ArrayList<>();
      for (QaCase.Item q : c.questions()) {
        CallMeter.Reading before = meter.read();
        long t = System.nanoTime();
        Answer a = lychee.answer(new Question(ns, q.question(), k, q.askedAt()));
        long millis = (System.nanoTime() - t) / 1_000_000;
        CallMeter.Reading asked = meter.read().since(before);
        AnswerJudge.Verdict verdict = judge == null ? AnswerJudge.Verdict.NONE
            : judge.judge(q.question(), q.gold(), a.text(), q.rule());
        out.add(new QuestionOutcome(q.index(), q.category(), q.type(), q.question(), q.gold(), a.text(),
            verdict.correct(), verdict.parsed(), AnswerText.f1(a.text(), q.gold()), AnswerText.bleu1(a.text(), q.gold()),
            AnswerText.exactMatch(a.text(), q.gold()), a.text().equals(LlmAnswerGenerator.NOT_AVAILABLE),
            bestSentenceF1(a, q.gold()),
            asked.calls(), asked.usage().inputTokens(), asked.usage().outputTokens(),
            verdict.usage().inputTokens(), verdict.usage().outputTokens(), millis));
      }
      return new ConversationOutcome(c.id(), variant.name(), turns, segments.size(), pending, records,
          built.calls(), built.usage().inputTokens(), built.usage().outputTokens(), buildMillis, out);
    }
  }

  /**
   * The figure a finished conversation's progress line shows: judge accuracy when a judge graded
   * its answers, else their mean token F1 (a run without a judge has no accuracy to show).
   */
  static String progressFigure(ConversationOutcome o) {
    List<QuestionOutcome> qs = o.questions();
    if (qs.isEmpty()) {
      return "";
    }
    if (qs.stream().anyMatch(QuestionOutcome::verdictParsed)) {
      return String.format(java.util.Locale.ROOT, ", judge accuracy %.3f",
          qs.stream().filter(QuestionOutcome::correct).count() / (double) qs.size());
    }
    return String.format(java.util.Locale.ROOT, ", token F1 %.3f (no judge)",
        qs.stream().mapToDouble(QuestionOutcome::f1).average().orElse(0));
  }

  /**
   * The configuration of a variant: its segmenter, its reference-context switch, every stage on the
   * LLM, its retrieval.
   */
  LycheeConfig configFor(QaVariant variant, boolean offline) {
    LycheeConfig base = retrievalConfigs.apply(variant.retrieval());
    LycheeConfig.Mode mode = offline ? LycheeConfig.Mode.OFFLINE : LycheeConfig.Mode.LLM;
    // Construction cost is metered around the ingest loop, so encoding runs on the caller's thread:
    // with background encoding the loop would end before the encoder's calls were made.
    return base.toBuilder()
        .ingest(base.ingest().toBuilder().encodeMode(IngestConfig.EncodeMode.SYNC).build())
        .segmenter(variant.segmenter())
        .encoding(base.encoding().toBuilder().referenceContext(variant.referenceContext()).build())
        .encoder(mode)
        .planner(mode)
        .answerer(mode)
        .build();
  }

  /** The highest token F1 of one sentence of the answer's evidence against the reference. */
  static double bestSentenceF1(Answer a, String gold) {
    double best = 0;
    for (var e : a.evidence()) {
      for (String body : sentences(e.text())) {
        best = Math.max(best, AnswerText.f1(body, gold));
      }
    }
    return best;
  }

  /** An evidence text's sentences, each without its speaker prefix, as the best-sentence bound reads them. */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (String s : text.split("(?<=[.!?])\\s+|\\n+")) {
      out.add(s.replaceFirst("^\\s*[A-Z][\\w'.-]*(?: [A-Z][\\w'.-]*)?:\\s+", ""));
    }
    return out;
  }

  /** Stands in for the chat model of an offline run, which never calls it. */
  private static final ChatModel NO_MODEL = new ChatModel() {
    @Override
    public dev.lychee.api.ChatResult chat(dev.lychee.api.ChatRequest request) {
      throw new IllegalStateException("an offline run made a model call");
    }

    @Override
    public String modelId() {
      return "offline";
    }
  };

  private static String message(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
