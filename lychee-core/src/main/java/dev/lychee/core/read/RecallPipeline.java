package dev.lychee.core.read;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.api.spi.Selector;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.recall.PlanSearches;
import dev.lychee.core.select.BudgetConfig;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Plan-guided multi-route recall: plan the question (a failing planner falls back to one route
 * holding the question), build every route's {@link RouteQuery} with all variants embedded in one
 * batch (see {@link RouteQueries}), run every bound channel on every route (their vector searches shared between
 * routes through the context's {@link PlanSearches}), score each route, fuse the routes, rerank, and
 * select the final evidence. A question with a token budget is searched to the budget's depth
 * ({@link BudgetConfig#depth}) and its evidence is guaranteed to fit: whatever the bound selector
 * returns is cut to the longest prefix whose serialisation ({@link EvidenceTokens}) fits the
 * budget. No LLM call happens here except the planner's. Which stages run is
 * decided by binding (see {@link RetrievalModule}), never by flags read here. Thread-safe when its
 * parts are.
 */
public final class RecallPipeline {
  private final QueryPlanner planner;
  private final List<RecallChannel> channels;
  private final Fuser fuser;
  private final Reranker reranker;
  private final Selector selector;
  private final Embedder embedder;
  private final RouteScorer scorer;
  private final int maxVariants;
  private final BudgetConfig budgets;
  private final EvidenceTokens tokens;

  @Inject
  public RecallPipeline(QueryPlanner planner, Set<RecallChannel> channels, Fuser fuser, Reranker reranker,
      Selector selector, Embedder embedder, RecordStore store, RetrievalConfig config, EvidenceTokens tokens) {
    this.planner = planner;
    this.channels = List.copyOf(channels);
    this.fuser = fuser;
    this.reranker = reranker;
    this.selector = selector;
    this.embedder = embedder;
    this.scorer = new RouteScorer(store, config);
    this.maxVariants = config.maxVariants();
    this.budgets = config.budget();
    this.tokens = tokens;
  }

  /** Recalls evidence for a question from its namespace. */
  public Recall recall(Question question) {
    return recall(question, RecallObserver.NONE);
  }

  /** Recalls evidence, reporting every stage's intermediate results to {@code observer}. */
  public Recall recall(Question question, RecallObserver observer) {
    long t0 = System.nanoTime();
    RecallPlan plan = plan(question);
    RecallContext context = RouteQueries.context(question, plan, embedder, maxVariants, budgets.depth(question),
        observer);
    List<RouteRanking> rankings = rankRoutes(plan, context, observer);
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

  private List<RouteRanking> rankRoutes(RecallPlan plan, RecallContext context, RecallObserver observer) {
    List<RouteRanking> rankings = new ArrayList<>();
    for (RecallRoute route : plan.routes()) {
      List<List<Candidate>> hits = new ArrayList<>();
      for (RecallChannel ch : channels) {
        List<Candidate> found = ch.recall(route, context);
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
}
