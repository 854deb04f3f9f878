package dev.lychee.api.spi;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.ScoredId;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every recall stage may read about the question being answered.
 *
 * @param question the question (its namespace scopes every read)
 * @param plan the plan being executed
 * @param k the effective evidence depth
 * @param routeQueries one {@link RouteQuery} per route of the plan, in plan order: the variants,
 *     their vectors, the date filter and the terms each channel searches with (empty for stages
 *     run without channels, such as a fuser on hand-built rankings)
 * @param observer the hooks stages report to ({@link RecallObserver#NONE} unless a trace was asked for)
 * @param searches how channels search vector indexes with a route's variants ({@link #searchAll}):
 *     the pipeline gives each recall one that shares a search between the plan's routes;
 *     {@link VectorSearches#DIRECT} (also for {@code null}) searches the index every time
 */
public record RecallContext(Question question, RecallPlan plan, int k, List<RouteQuery> routeQueries,
    RecallObserver observer, VectorSearches searches) {

  public RecallContext {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(plan, "plan");
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
    routeQueries = List.copyOf(routeQueries);
    observer = observer == null ? RecallObserver.NONE : observer;
    searches = searches == null ? VectorSearches.DIRECT : searches;
  }

  /** A context whose channels search vector indexes directly ({@link VectorSearches#DIRECT}). */
  public RecallContext(Question question, RecallPlan plan, int k, List<RouteQuery> routeQueries,
      RecallObserver observer) {
    this(question, plan, k, routeQueries, observer, VectorSearches.DIRECT);
  }

  /** A context that nobody observes. */
  public RecallContext(Question question, RecallPlan plan, int k, List<RouteQuery> routeQueries) {
    this(question, plan, k, routeQueries, RecallObserver.NONE);
  }

  /** A context without route queries, for stages that never run a channel. */
  public static RecallContext withoutQueries(Question question, RecallPlan plan, int k) {
    return new RecallContext(question, plan, k, List.of());
  }

  public String namespace() {
    return question.namespace();
  }

  /**
   * The hits of each of {@code query}'s embedded variants ({@link RouteQuery#embeddedVariants}) in
   * index {@code kind} of this context's namespace, in variant order, through {@link #searches()}: a channel that searches vectors this way shares
   * each search with the plan's other routes (same hits as {@code index.searchAll(namespace(),
   * kind, vectors of the variants, limit, null)}).
   */
  public List<List<ScoredId>> searchAll(VectorIndex index, String kind, RouteQuery query, int limit) {
    return searches.searchAll(index, namespace(), kind, query, limit);
  }

  /**
   * {@link #searchAll} for several kinds of one index at once, through {@link #searches()} ({@link
   * VectorSearches#searchKinds}): the value of each kind is what {@code searchAll(index, kind, query,
   * limit)} returns, and an index that pays per call is asked once for all of them.
   */
  public Map<String, List<List<ScoredId>>> searchKinds(VectorIndex index, List<String> kinds, RouteQuery query,
      int limit) {
    return searches.searchKinds(index, namespace(), kinds, query, limit);
  }

  /**
   * The pipeline's query object of one route.
   *
   * @throws IllegalArgumentException if the route is not one this context was built for
   */
  public RouteQuery query(RecallRoute route) {
    for (RouteQuery q : routeQueries) {
      if (q.route().equals(route)) {
        return q;
      }
    }
    throw new IllegalArgumentException("no route query for route " + route.id());
  }
}
