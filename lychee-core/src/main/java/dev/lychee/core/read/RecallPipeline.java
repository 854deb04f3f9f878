package dev.lychee.core.read;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.api.spi.Selector;
import dev.lychee.api.spi.VectorSearches;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.fallback.ReadDeadline;
import dev.lychee.core.recall.PlanSearches;
import dev.lychee.core.select.BudgetConfig;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Plan-guided multi-route recall: plan the question (a failing planner falls back to one route
 * holding the question), build every route's {@link RouteQuery} with its variants embedded (see
 * {@link RouteQueries}), run every bound channel on every route (their vector searches shared between
 * routes through the context's {@link PlanSearches}; with early-channel threads the plan and then the
 * channels that need no vectors run on one while the question is embedded, docs/defaults.md §4.5),
 * score each route, fuse the routes, rerank, and
 * select the final evidence. A question with a token budget is searched to the budget's depth
 * ({@link BudgetConfig#depth}) and its evidence is guaranteed to fit: whatever the bound selector
 * returns is cut to the longest prefix whose serialisation ({@link EvidenceTokens}) fits the
 * budget. No LLM call happens here except the planner's. Which stages run is
 * decided by binding (see {@link RetrievalModule}), never by flags read here. Thread-safe when its
 * parts are.
 */
public final class RecallPipeline implements AutoCloseable {
  private final QueryPlanner planner;
  private final List<RecallChannel> channels;
  private final Fuser fuser;
  private final Reranker reranker;
  private final Selector selector;
  private final Embedder embedder;
  private final RecordStore store;
  private final RouteScorer scorer;
  private final int maxVariants;
  private final int maxEmbeddedVariants;
  private final BudgetConfig budgets;
  private final EvidenceTokens tokens;
  /** Makes the plan and runs the channels that need no vectors while the question is embedded; null: in turn. */
  private final ThreadPoolExecutor early;

  @Inject
  public RecallPipeline(QueryPlanner planner, Set<RecallChannel> channels, Fuser fuser, Reranker reranker,
      Selector selector, Embedder embedder, RecordStore store, RetrievalConfig config, EvidenceTokens tokens) {
    this.planner = planner;
    this.channels = List.copyOf(channels);
    this.fuser = fuser;
    this.reranker = reranker;
    this.selector = selector;
    this.embedder = embedder;
    this.store = store;
    this.scorer = new RouteScorer(store, config);
    this.maxVariants = config.maxVariants();
    this.maxEmbeddedVariants = config.maxEmbeddedVariants();
    this.budgets = config.budget();
    this.tokens = tokens;
    boolean anyEarly = this.channels.stream().anyMatch(c -> !c.needsVectors());
    this.early = anyEarly && config.earlyChannelThreads() > 0 ? earlyPool(config.earlyChannelThreads()) : null;
  }

  /**
   * At most {@code threads} daemon threads, none kept while idle (they end 5 s after their last
   * task), and no queue: a recall that finds them all busy runs its early channels on its own
   * thread before the batch, as it would without the pool (also after {@link #close}).
   */
  private static ThreadPoolExecutor earlyPool(int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 5, TimeUnit.SECONDS, new SynchronousQueue<>(),
        r -> {
          Thread t = new Thread(r, "lychee-recall-early-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        },
        (task, executor) -> task.run());
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** Recalls evidence for a question from its namespace. */
  public Recall recall(Question question) {
    return recall(question, RecallObserver.NONE);
  }

  /**
   * Recalls evidence, reporting every stage's intermediate results to {@code observer}. The whole
   * recall, its early channels included, reads the store at one {@link ReadPoint} of the question's
   * namespace: on a database shared by several instances its reads then learn what changed once,
   * not once per read (round eighteen, docs/measurements.md §6).
   */
  public Recall recall(Question question, RecallObserver observer) {
    long t0 = System.nanoTime();
    ReadPoint point = store.readPoint(question.namespace());
    return point.call(() -> recall(question, observer, point, t0));
  }

  private Recall recall(Question question, RecallObserver observer, ReadPoint point, long t0) {
    int depth = budgets.depth(question);
    Planned p;
    Future<List<List<Candidate>>> earlyHits;
    Map<String, float[]> ahead;
    if (early == null) {
      p = planned(question);
      earlyHits = null;
      ahead = Map.of();
    } else {
      // the plan and the early channels on the pool while this thread embeds the question, which
      // every plan embeds (it leads every route's variants): round twenty-two, measurements §6
      CompletableFuture<Planned> planning = new CompletableFuture<>();
      earlyHits = planAndStartEarly(question, depth, point, planning);
      ahead = embedQuestion(question, planning, earlyHits);
      p = awaitPlan(planning);
    }
    RecallPlan plan = p.plan();
    List<RouteQuery> queries;
    try {
      // the bound was measured on rule-based plans, whose variants restate the question; a model's
      // plan spent tokens on its queries, and they are what its vector search is for: all embedded
      int bound = plan.usage().equals(TokenUsage.ZERO) ? maxEmbeddedVariants : 0;
      queries = RouteQueries.embedded(p.texts(), embedder, bound, ahead);
    } catch (RuntimeException | Error e) {
      // leave nothing running behind a failed recall: wait for the early channels, keep their error too
      suppressEarlyOutcome(e, earlyHits);
      throw e;
    }
    // the routes share their vector searches: every route searches with the question, among others
    RecallContext context = new RecallContext(question, plan, depth, queries, observer, new PlanSearches(queries));
    List<List<Candidate>> found = earlyHits == null ? null : await(earlyHits);
    List<RouteRanking> rankings = rankRoutes(plan, context, observer, found);
    List<Candidate> fused = fuser.fuse(rankings, context);
    observer.fused(fused);
    List<Candidate> pool = reranker.rerank(fused, context);
    observer.reranked(pool);
    List<Evidence> evidence = selector.select(pool, context);
    if (question.hasTokenBudget()) {
      evidence = tokens.fit(evidence, question.tokenBudget());
    }
    return new Recall(question, plan, evidence, System.nanoTime() - t0);
  }

  /** A plan and its route queries before anything is embedded. */
  private record Planned(RecallPlan plan, List<RouteQuery> texts) {}

  private Planned planned(Question question) {
    RecallPlan plan = plan(question);
    return new Planned(plan, RouteQueries.withoutVectors(question, plan, maxVariants));
  }

  /**
   * Plans {@code question} and then runs the channels that need no vectors on every route, route by
   * route in channel order, with the route queries' texts, on a pool thread; the plan completes
   * {@code planned} as soon as it is made. When the pool is busy all of it runs here, before the
   * embedding, as without a pool. The observer sees the channels' hits later, on the recalling
   * thread, in pipeline order.
   */
  private Future<List<List<Candidate>>> planAndStartEarly(Question question, int depth, ReadPoint point,
      CompletableFuture<Planned> planned) {
    // the read's deadline goes with the plan: a model planner's call gives up at it on this thread too
    Supplier<List<List<Candidate>>> work = ReadDeadline.carried(() -> point.call(() -> {
      Planned p;
      try {
        p = planned(question);
      } catch (RuntimeException | Error e) {
        planned.completeExceptionally(e);
        throw e;
      }
      planned.complete(p);
      RecallContext textOnly = new RecallContext(question, p.plan(), depth, p.texts(), RecallObserver.NONE,
          VectorSearches.DIRECT);
      List<List<Candidate>> out = new ArrayList<>();
      for (RecallRoute route : p.plan().routes()) {
        for (RecallChannel ch : channels) {
          if (!ch.needsVectors()) {
            out.add(ch.recall(route, textOnly));
          }
        }
      }
      return out;
    }));
    return early.submit(work::get);
  }

  /**
   * The question's vector, embedded while the plan is made: the text that leads every route's
   * variants ({@link RouteVariants}), so every plan embeds it. A failed embedding fails the recall
   * as it would after the plan: once the plan is known (a failed plan's own error comes first, as
   * when no embedding had started) and the early channels have ended, their error suppressed.
   */
  private Map<String, float[]> embedQuestion(Question question, CompletableFuture<Planned> planned,
      Future<List<List<Candidate>>> earlyHits) {
    String text = question.text().strip();
    try {
      return Map.of(text, embedder.embedQueries(List.of(text)).get(0));
    } catch (RuntimeException | Error e) {
      awaitPlan(planned);
      suppressEarlyOutcome(e, earlyHits);
      throw e;
    }
  }

  /** The plan; a failed plan's error is rethrown as the planner threw it. */
  private static Planned awaitPlan(CompletableFuture<Planned> planned) {
    try {
      return planned.get();
    } catch (ExecutionException e) {
      throw rethrown(e.getCause(), "the query planner failed");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the question was planned", e);
    }
  }

  /** Waits for the early channels to end and adds their error, if any, to {@code e} as suppressed. */
  private static void suppressEarlyOutcome(Throwable e, Future<List<List<Candidate>>> earlyHits) {
    Throwable other = outcome(earlyHits);
    if (other != null) {
      e.addSuppressed(other);
    }
  }

  /**
   * What to throw for a task's {@code cause}: a runtime exception as it is, a checked one wrapped with
   * {@code message}; an {@link Error} is thrown from here as it is.
   */
  private static RuntimeException rethrown(Throwable cause, String message) {
    if (cause instanceof RuntimeException r) {
      return r;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    return new IllegalStateException(message, cause);
  }

  /** The early channels' hits; their failure is rethrown here as it would have been thrown in turn. */
  private static List<List<Candidate>> await(Future<List<List<Candidate>>> hits) {
    try {
      return hits.get();
    } catch (ExecutionException e) {
      throw rethrown(e.getCause(), "a recall channel failed");
    } catch (InterruptedException e) {
      hits.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the recall channels ran", e);
    }
  }

  /** Waits for {@code hits} to end; what it failed with, or null. */
  private static Throwable outcome(Future<List<List<Candidate>>> hits) {
    if (hits == null) {
      return null;
    }
    try {
      await(hits);
      return null;
    } catch (RuntimeException | Error e) {
      return e;
    }
  }

  private List<RouteRanking> rankRoutes(RecallPlan plan, RecallContext context, RecallObserver observer,
      List<List<Candidate>> earlyHits) {
    List<RouteRanking> rankings = new ArrayList<>();
    int next = 0;
    for (RecallRoute route : plan.routes()) {
      List<List<Candidate>> hits = new ArrayList<>();
      for (RecallChannel ch : channels) {
        List<Candidate> found = earlyHits != null && !ch.needsVectors() ? earlyHits.get(next++) : ch.recall(route, context);
        observer.channel(route, ch.name(), found);
        hits.add(found);
      }
      RouteRanking ranking = scorer.rank(route, hits, context);
      observer.route(ranking);
      rankings.add(ranking);
    }
    return rankings;
  }

  private RecallPlan plan(Question q) {
    try {
      return planner.plan(q);
    } catch (dev.lychee.core.fallback.LlmUnavailableException e) {
      throw e; // the configured policy is to fail, not to plan a single route
    } catch (RuntimeException e) {
      return RecallPlan.singleRoute(q.text());
    }
  }

  /** Stops the early-channel threads; a later recall runs every channel on its own thread. */
  @Override
  public void close() {
    if (early != null) {
      early.shutdown();
    }
  }
}
