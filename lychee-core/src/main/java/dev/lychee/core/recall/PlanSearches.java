package dev.lychee.core.recall;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.VectorIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The vector searches of one recall, shared by all of its routes. Every route searches with the
 * question as its first variant, and routes of one plan often share their goal or queries, so a
 * channel run route by route would compare the same query vector with every stored vector of an
 * index once per route. Inside {@link #during}, the first search of an index (per index, kind and
 * limit) runs every distinct variant of the whole plan in one {@link VectorIndex#searchAll} pass,
 * and each route then reads its own variants' hit lists from that pass.
 *
 * <p>The results are those of searching route by route: every index answers each query of a
 * {@code searchAll} batch on its own (a top-k per query), so a query's hits do not depend on the
 * other queries beside it. The only difference is that all routes of a recall see the index as it
 * was at its first search, not as a write racing the recall may have left it a few routes later.
 *
 * <p>The scope is one thread and one context: outside {@link #during}, or for another context
 * (a channel called on its own, as tests do), every search goes to the index directly.
 */
public final class PlanSearches {
  private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

  private PlanSearches() {}

  /**
   * Runs {@code work} (the channels of every route of {@code context}) with this thread's vector
   * searches for {@code context} shared between routes; the shared hits are dropped on return.
   */
  public static <T> T during(RecallContext context, Supplier<T> work) {
    Objects.requireNonNull(context, "context");
    Scope previous = CURRENT.get();
    CURRENT.set(new Scope(context));
    try {
      return work.get();
    } finally {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }

  /**
   * The hits of each of {@code query}'s variants in index {@code kind}, in variant order, as
   * {@code vectors.searchAll(namespace, kind, vectorsOf(query), limit, null)} gives them.
   */
  static List<List<ScoredId>> searchAll(VectorIndex vectors, String kind, RecallContext context, RouteQuery query,
      int limit) {
    Scope s = CURRENT.get();
    if (s == null || s.context != context) {
      return vectors.searchAll(context.namespace(), kind, VariantHit.vectorsOf(query), limit, null);
    }
    return s.search(vectors, kind, query, limit);
  }

  /** One (index, kind, limit) searched for a recall; the index is compared by identity. */
  private record Key(VectorIndex vectors, String kind, int limit) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.vectors == vectors && k.kind.equals(kind) && k.limit == limit;
    }

    @Override
    public int hashCode() {
      return (System.identityHashCode(vectors) * 31 + kind.hashCode()) * 31 + limit;
    }
  }

  private static final class Scope {
    private final RecallContext context;
    private final Map<Key, Map<String, List<ScoredId>>> done = new HashMap<>();

    Scope(RecallContext context) {
      this.context = context;
    }

    List<List<ScoredId>> search(VectorIndex vectors, String kind, RouteQuery query, int limit) {
      Key key = new Key(vectors, kind, limit);
      Map<String, List<ScoredId>> byVariant = done.get(key);
      if (byVariant == null || !byVariant.keySet().containsAll(query.variants())) {
        // every distinct variant of the plan (this route's first, should it not be one of them)
        Map<String, float[]> texts = new LinkedHashMap<>();
        query.variants().forEach(v -> texts.putIfAbsent(v, query.vector(v)));
        for (RouteQuery q : context.routeQueries()) {
          q.variants().forEach(v -> texts.putIfAbsent(v, q.vector(v)));
        }
        List<String> order = new ArrayList<>(texts.keySet());
        List<List<ScoredId>> hits =
            vectors.searchAll(context.namespace(), kind, new ArrayList<>(texts.values()), limit, null);
        byVariant = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
          byVariant.put(order.get(i), hits.get(i));
        }
        done.put(key, byVariant);
      }
      List<List<ScoredId>> out = new ArrayList<>(query.variants().size());
      for (String v : query.variants()) {
        out.add(byVariant.get(v));
      }
      return out;
    }
  }
}
