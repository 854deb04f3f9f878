package dev.lychee.core.recall;

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
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.api.spi.Selector;
import dev.lychee.core.fuse.MaxScoreFuser;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plan-guided multi-route recall: plan the question (or take one route holding it), embed every
 * route's query variants in one batch, run every channel on every route, score each route, fuse
 * the routes, optionally rerank, and select the final evidence. No LLM call happens here except
 * the planner's. Thread-safe when its parts are.
 */
public final class RecallPipeline {
  private final QueryPlanner planner;
  private final List<RecallChannel> channels;
  private final Fuser fuser;
  private final Reranker reranker;
  private final Selector selector;
  private final Embedder embedder;
  private final RetrievalConfig config;
  private final RouteScorer scorer;
  private final Fuser plainFuser = new MaxScoreFuser();

  @Inject
  public RecallPipeline(QueryPlanner planner, Set<RecallChannel> channels, Fuser fuser, Reranker reranker,
      Selector selector, Embedder embedder, RecordStore store, RetrievalConfig config) {
    this.planner = planner;
    this.channels = List.copyOf(channels);
    this.fuser = fuser;
    this.reranker = reranker;
    this.selector = selector;
    this.embedder = embedder;
    this.config = config;
    this.scorer = new RouteScorer(store, config);
  }

  /** Recalls evidence for a question from its namespace. */
  public Recall recall(Question question) {
    long t0 = System.nanoTime();
    RecallPlan plan = plan(question);
    int maxVariants = config.budgets().maxVariants();
    Set<String> queries = new LinkedHashSet<>();
    for (RecallRoute r : plan.routes()) {
      queries.addAll(RouteVariants.of(question.text(), r, maxVariants));
    }
    List<String> qs = new ArrayList<>(queries);
    List<float[]> vecs = embedder.embedQueries(qs);
    Map<String, float[]> byQuery = new HashMap<>();
    for (int i = 0; i < qs.size(); i++) {
      byQuery.put(qs.get(i), vecs.get(i));
    }
    RecallContext context = new RecallContext(question, plan, question.k(), byQuery);

    List<RecallChannel> active = activeChannels();
    List<RouteRanking> rankings = new ArrayList<>();
    for (RecallRoute route : plan.routes()) {
      List<List<Candidate>> hits = new ArrayList<>();
      for (RecallChannel ch : active) {
        hits.add(ch.recall(route, context));
      }
      rankings.add(scorer.rank(route, hits, context));
    }
    boolean plain = config.ablations().noFusionRerankDiversity();
    List<Candidate> pool = (plain ? plainFuser : fuser).fuse(rankings, context);
    if (!plain && config.rerank().enabled()) {
      pool = reranker.rerank(pool, context);
    }
    List<Evidence> evidence = selector.select(pool, context);
    return new Recall(question, plan, evidence, System.nanoTime() - t0);
  }

  private RecallPlan plan(Question q) {
    if (config.ablations().noPlanner()) {
      return RecallPlan.singleRoute(q.text());
    }
    try {
      return planner.plan(q);
    } catch (dev.lychee.core.fallback.LlmUnavailableException e) {
      throw e; // the configured policy is to fail, not to plan a single route
    } catch (RuntimeException e) {
      return RecallPlan.singleRoute(q.text());
    }
  }

  private List<RecallChannel> activeChannels() {
    RetrievalConfig.Ablations a = config.ablations();
    List<RecallChannel> out = new ArrayList<>();
    for (RecallChannel ch : channels) {
      if (a.recordVectorOnly() && !ch.name().equals(RecordVectorChannel.NAME)) {
        continue;
      }
      if (a.noRawTurns() && ch.name().equals(RawTurnChannel.NAME)) {
        continue;
      }
      out.add(ch);
    }
    return out;
  }
}
