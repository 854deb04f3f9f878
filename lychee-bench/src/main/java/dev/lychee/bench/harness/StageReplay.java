package dev.lychee.bench.harness;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.bench.locomo.DiaId;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.bench.metrics.EvidenceScorer;
import dev.lychee.bench.metrics.QuestionScore;
import dev.lychee.bench.metrics.SystemResult;
import dev.lychee.bench.systems.BudgetedRecall;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.EvidenceItem;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.answer.EvidenceFormatter;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.fuse.FusionConfig;
import dev.lychee.core.fuse.RrfQuotaFuser;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.read.RouteScorer;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.rerank.FeatureReranker;
import dev.lychee.core.select.MmrSelector;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Re-runs the later read stages of Lychee's LoCoMo recalls with other settings, without ingesting
 * or searching again: {@link #capture} ingests every conversation into one offline Lychee and
 * recalls each question as {@code eval locomo} does (once at the run's largest k, once per token
 * budget), keeping each recall's plan, context and every route's channel hits; {@link #replay} then
 * scores the routes (boosts, source windows, per-route score), fuses, reranks and selects them
 * again with a {@link ReplayVariant}'s settings and scores the result as {@code eval locomo} does.
 * The default variant reproduces the live recalls exactly (tested), so a setting of these stages
 * is measured on the whole dev half in about a minute instead of a full run. Settings of the
 * planner, the query variants or the channels (other than the record-vector base) need a full run.
 * Keeps every conversation in memory until {@link #close}.
 */
public final class StageReplay implements AutoCloseable {
  /** One recall: its context and every route's channel hits, in pipeline order. */
  private record Captured(RecallContext context, List<RecallRoute> routes, List<List<String>> channels,
      List<List<List<Candidate>>> hits, List<EvidenceItem> live, int liveTokens) {}

  private record Asked(LocomoQuestion question, List<TurnRef> gold, Captured plain, List<Captured> budgeted) {}

  /** Where the recording fuser leaves what the replay needs from inside the pipeline. */
  private static final class Inside {
    RecordStore store;
    RecallContext context;
  }

  private final EvidenceScorer scorer;
  private final Inside inside = new Inside();
  private final Lychee lychee;
  private final EvidenceFormatter formatter = new EvidenceFormatter();
  private final EvidenceTokens tokens = new EvidenceTokens(new O200kTokenCounter(), formatter);
  private final List<Asked> asked = new ArrayList<>();

  /** An offline Lychee with the default configuration and {@code embedder}, scored by {@code scorer}. */
  public StageReplay(Embedder embedder, EvidenceScorer scorer) {
    this.scorer = Objects.requireNonNull(scorer, "scorer");
    Inside in = inside;
    this.lychee = Lychee.builder().embedder(embedder).config(LycheeConfig.defaults()).module(new AbstractModule() {
      @Provides
      @Singleton
      Fuser fuser(FusionConfig fusion, RecordStore store) {
        in.store = store;
        RrfQuotaFuser real = new RrfQuotaFuser(fusion);
        return (rankings, context) -> {
          in.context = context;
          return real.fuse(rankings, context);
        };
      }
    }).build();
  }

  /** Ingests each conversation into its own namespace and recalls every question of it. */
  public void capture(List<LocomoConversation> conversations, Progress progress) {
    for (LocomoConversation conv : conversations) {
      String namespace = "locomo-" + conv.sampleId();
      List<EvalSession> sessions = LocomoSessions.of(conv);
      progress.start(conv.sampleId() + " ingest", sessions.size());
      LocalDateTime last = null;
      int queued = 0;
      for (EvalSession s : sessions) {
        queued += lychee.append(namespace, s.id(), s.date(), s.turns()).segmentsQueued();
        queued += lychee.flush(namespace, s.id()).segmentsQueued();
        if (s.date() != null && (last == null || s.date().isAfter(last))) {
          last = s.date();
        }
        progress.step();
      }
      if (queued > 0) {
        lychee.awaitIdle(namespace, Duration.ofHours(2));
      }
      progress.done(conv.turnCount() + " turns");
      progress.start(conv.sampleId() + " capture", conv.questions().size());
      for (LocomoQuestion q : conv.questions()) {
        Question plain = new Question(namespace, q.question(), scorer.maxK(), last);
        List<Captured> budgeted = new ArrayList<>();
        for (int b : scorer.budgets()) {
          budgeted.add(capture(plain.withTokenBudget(b)));
        }
        asked.add(new Asked(q, q.gold().stream().map(DiaId::toTurnRef).toList(), capture(plain), budgeted));
        progress.step();
      }
      progress.done(conv.questions().size() + " questions");
    }
  }

  private Captured capture(Question q) {
    List<RecallRoute> routes = new ArrayList<>();
    List<List<String>> channels = new ArrayList<>();
    List<List<List<Candidate>>> hits = new ArrayList<>();
    RecallObserver observer = new RecallObserver() {
      @Override
      public void channel(RecallRoute route, String channel, List<Candidate> candidates) {
        if (routes.isEmpty() || routes.get(routes.size() - 1) != route) {
          routes.add(route);
          channels.add(new ArrayList<>());
          hits.add(new ArrayList<>());
        }
        channels.get(channels.size() - 1).add(channel);
        hits.get(hits.size() - 1).add(List.copyOf(candidates));
      }
    };
    Recall r = lychee.recall(q, observer);
    return new Captured(inside.context, routes, channels, hits, items(r.evidence()), tokens.count(r.evidence()));
  }

  /** The scores of the captured recalls themselves. */
  public SystemResult live(String name) {
    return score(name, c -> c.live(), c -> c.liveTokens());
  }

  /** The scores of the captured recalls re-run from their channel hits with {@code variant}'s settings. */
  public SystemResult replay(ReplayVariant variant) {
    RetrievalConfig config = variant.config();
    RouteScorer routes = new RouteScorer(inside.store, config);
    RrfQuotaFuser fuser = new RrfQuotaFuser(config.fusion());
    FeatureReranker reranker = new FeatureReranker(config.rerank(), config.latestFirst());
    MmrSelector selector = new MmrSelector(config.mmr(), config.budget(), config.strategies(), tokens);
    Map<Captured, List<Evidence>> memo = new IdentityHashMap<>();
    Function<Captured, List<Evidence>> run = c -> memo.computeIfAbsent(c,
        x -> select(x, variant, routes, fuser, reranker, selector));
    return score(variant.name(), c -> items(run.apply(c)), c -> tokens.count(run.apply(c)));
  }

  private SystemResult score(String name, Function<Captured, List<EvidenceItem>> items, ToIntFunction<Captured> size) {
    List<QuestionScore> scores = new ArrayList<>();
    for (Asked a : asked) {
      Map<Integer, BudgetedRecall> budgeted = new LinkedHashMap<>();
      for (int i = 0; i < scorer.budgets().size(); i++) {
        Captured c = a.budgeted().get(i);
        budgeted.put(scorer.budgets().get(i), new BudgetedRecall(items.apply(c), size.applyAsInt(c)));
      }
      scores.add(scorer.score(a.question().category(), a.gold(), items.apply(a.plain()), a.question().answer(),
          budgeted));
    }
    return SystemResult.of(name, scores);
  }

  private List<Evidence> select(Captured c, ReplayVariant variant, RouteScorer routes, RrfQuotaFuser fuser,
      FeatureReranker reranker, MmrSelector selector) {
    RecallContext context = c.context();
    double configured = variant.config().weights().recordBase();
    double shift = (context.plan().multiPart() ? variant.multiPartRecordBase() : variant.recordBase()) - configured;
    List<RouteRanking> rankings = new ArrayList<>();
    for (int r = 0; r < c.routes().size(); r++) {
      List<List<Candidate>> hits = new ArrayList<>();
      for (int ch = 0; ch < c.hits().get(r).size(); ch++) {
        List<Candidate> found = c.hits().get(r).get(ch);
        if (shift != 0 && c.channels().get(r).get(ch).equals(RecordVectorChannel.NAME)) {
          found = found.stream().map(x -> x.withScore(Math.min(1, x.score() + shift))).toList();
        }
        hits.add(found);
      }
      rankings.add(routes.rank(c.routes().get(r), hits, context));
    }
    List<Evidence> evidence = selector.select(reranker.rerank(fuser.fuse(rankings, context), context), context);
    return context.question().hasTokenBudget() ? tokens.fit(evidence, context.question().tokenBudget()) : evidence;
  }

  private List<EvidenceItem> items(List<Evidence> evidence) {
    List<EvidenceItem> out = new ArrayList<>(evidence.size());
    for (Evidence e : evidence) {
      out.add(new EvidenceItem(e.turns(), formatter.item(e), 0));
    }
    return out;
  }

  /** How many questions were captured. */
  public int questions() {
    return asked.size();
  }

  @Override
  public void close() {
    lychee.close();
  }
}
