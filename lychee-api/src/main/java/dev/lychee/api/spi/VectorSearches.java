package dev.lychee.api.spi;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the channels of one recall search vector indexes with a route's query variants, carried in
 * the {@link RecallContext} ({@link RecallContext#searchAll}). The pipeline hands every recall its
 * own instance, which runs each (index, kind, limit) search once for all the routes of the plan:
 * every route searches with the question, among others, so a channel run route by route would
 * otherwise compare the same query vector with every stored vector once per route. A context built
 * without one searches the index directly ({@link #DIRECT}).
 *
 * <p>Contract: {@link #searchAll} returns, for each embedded variant of {@code query}
 * ({@link RouteQuery#embeddedVariants}) in variant order, the hits {@code index.searchAll(namespace,
 * kind, vectors of those variants, limit, null)} would
 * return for it (a sharing implementation may answer from a search made earlier in the same recall,
 * so a write racing the recall may be seen by some routes and not by others, as with any read).
 * Thread-safe: channels of one recall may run on several threads.
 */
@FunctionalInterface
public interface VectorSearches {

  /**
   * The hits of each of {@code query}'s embedded variants ({@link RouteQuery#embeddedVariants}) in
   * index {@code kind} of {@code namespace}, in variant order.
   *
   * @param index the index to search (compared by identity when a search is shared)
   * @param namespace the recall's namespace
   * @param kind the index kind ({@link VectorIndex#TURNS}, {@link VectorIndex#nodes}, ...)
   * @param query the route query whose variants to search with
   * @param limit the hits kept per variant ({@code > 0})
   */
  List<List<ScoredId>> searchAll(VectorIndex index, String namespace, String kind, RouteQuery query, int limit);

  /**
   * {@link #searchAll} for several kinds of one index at once: the value of each kind is exactly
   * what {@code searchAll(index, namespace, kind, query, limit)} returns. A channel that searches
   * several kinds with the same variants (the evidence-node channel's four node kinds) asks this
   * way, so that an index answering {@link VectorIndex#searchKinds} in one call is asked once; the
   * default asks {@link #searchAll} per kind.
   *
   * @param kinds the kinds to search (a kind named twice is searched once)
   * @return the hits of each kind, keyed by kind in the order of {@code kinds}
   */
  default Map<String, List<List<ScoredId>>> searchKinds(VectorIndex index, String namespace, List<String> kinds,
      RouteQuery query, int limit) {
    Map<String, List<List<ScoredId>>> out = new LinkedHashMap<>();
    for (String kind : kinds) {
      if (!out.containsKey(kind)) {
        out.put(kind, searchAll(index, namespace, kind, query, limit));
      }
    }
    return out;
  }

  /** Every search goes to the index as it is asked for; nothing is shared. */
  VectorSearches DIRECT = new VectorSearches() {
    @Override
    public List<List<ScoredId>> searchAll(VectorIndex index, String namespace, String kind, RouteQuery query,
        int limit) {
      return index.searchAll(namespace, kind, vectorsOf(query), limit, null);
    }

    @Override
    public Map<String, List<List<ScoredId>>> searchKinds(VectorIndex index, String namespace, List<String> kinds,
        RouteQuery query, int limit) {
      return index.searchKinds(namespace, kinds, vectorsOf(query), limit, null);
    }
  };

  /** The vectors of {@code query}'s embedded variants ({@link RouteQuery#embeddedVariants}), in variant order. */
  static List<float[]> vectorsOf(RouteQuery query) {
    List<String> variants = query.embeddedVariants();
    List<float[]> out = new ArrayList<>(variants.size());
    for (String v : variants) {
      out.add(query.vector(v));
    }
    return out;
  }
}
