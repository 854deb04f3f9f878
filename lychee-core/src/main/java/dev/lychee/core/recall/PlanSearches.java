package dev.lychee.core.recall;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.api.spi.VectorSearches;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The vector searches of one recall, shared by all of its routes: the {@link VectorSearches} the
 * pipeline puts in each recall's context. Every route searches with the question as its first
 * variant, and routes of one plan often share their goal or queries, so a channel run route by
 * route would compare the same query vector with every stored vector of an index once per route.
 * Here the first search of an index (per index, namespace, kind and limit) runs every distinct
 * variant of the whole plan in one {@link VectorIndex#searchAll} pass, and each route then reads
 * its own variants' hit lists from that pass.
 *
 * <p>The results are those of searching route by route: every index answers each query of a
 * {@code searchAll} batch on its own (a top-k per query), so a query's hits do not depend on the
 * other queries beside it. The only difference is that all routes of a recall see the index as it
 * was at its first search, not as a write racing the recall may have left it a few routes later.
 *
 * <p>One instance per recall (it keeps every hit list until the context is dropped); thread-safe.
 */
public final class PlanSearches implements VectorSearches {
  private final List<RouteQuery> plan;
  private final Map<Key, Map<String, List<ScoredId>>> done = new HashMap<>();

  /** Searches shared between the routes whose queries are {@code plan} (a context's route queries). */
  public PlanSearches(List<RouteQuery> plan) {
    this.plan = List.copyOf(plan);
  }

  /** One (index, namespace, kind, limit) searched for a recall; the index is compared by identity. */
  private record Key(VectorIndex vectors, String namespace, String kind, int limit) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.vectors == vectors && k.namespace.equals(namespace) && k.kind.equals(kind)
          && k.limit == limit;
    }

    @Override
    public int hashCode() {
      return ((System.identityHashCode(vectors) * 31 + namespace.hashCode()) * 31 + kind.hashCode()) * 31 + limit;
    }
  }

  @Override
  public synchronized List<List<ScoredId>> searchAll(VectorIndex vectors, String namespace, String kind,
      RouteQuery query, int limit) {
    return searchKinds(vectors, namespace, List.of(kind), query, limit).get(kind);
  }

  /**
   * As {@link #searchAll} for each kind; the kinds not searched yet in this recall go to the index
   * in one {@link VectorIndex#searchKinds} call, with every distinct variant of the plan.
   */
  @Override
  public synchronized Map<String, List<List<ScoredId>>> searchKinds(VectorIndex vectors, String namespace,
      List<String> kinds, RouteQuery query, int limit) {
    List<String> variants = query.embeddedVariants();
    List<String> missing = new ArrayList<>();
    for (String kind : kinds) {
      Map<String, List<ScoredId>> byVariant = done.get(new Key(vectors, namespace, kind, limit));
      if ((byVariant == null || !byVariant.keySet().containsAll(variants)) && !missing.contains(kind)) {
        missing.add(kind);
      }
    }
    if (!missing.isEmpty()) {
      // every distinct embedded variant of the plan (this route's first, should it not be one of them)
      Map<String, float[]> texts = new LinkedHashMap<>();
      variants.forEach(v -> texts.putIfAbsent(v, query.vector(v)));
      for (RouteQuery q : plan) {
        q.embeddedVariants().forEach(v -> texts.putIfAbsent(v, q.vector(v)));
      }
      List<String> order = new ArrayList<>(texts.keySet());
      Map<String, List<List<ScoredId>>> hits = missing.size() == 1
          ? Map.of(missing.get(0), vectors.searchAll(namespace, missing.get(0), new ArrayList<>(texts.values()), limit, null))
          : vectors.searchKinds(namespace, missing, new ArrayList<>(texts.values()), limit, null);
      for (String kind : missing) {
        List<List<ScoredId>> ofKind = hits.get(kind);
        Map<String, List<ScoredId>> byVariant = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
          byVariant.put(order.get(i), ofKind.get(i));
        }
        done.put(new Key(vectors, namespace, kind, limit), byVariant);
      }
    }
    Map<String, List<List<ScoredId>>> out = new LinkedHashMap<>();
    for (String kind : kinds) {
      Map<String, List<ScoredId>> byVariant = done.get(new Key(vectors, namespace, kind, limit));
      List<List<ScoredId>> lists = new ArrayList<>(variants.size());
      for (String v : variants) {
        lists.add(byVariant.get(v));
      }
      out.putIfAbsent(kind, lists);
    }
    return out;
  }
}
