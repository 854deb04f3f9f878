package dev.lychee.core.recall;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.score.Scores;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One id's best score over a route's query variants, with the variants that reached it. Repeated
 * hits keep the maximum (scores are never summed, docs/defaults.md §4.5) and add provenance.
 *
 * @param r the best score in [0, 1]
 * @param queries the variants that found the id, in the order they did
 */
record VariantHit(double r, List<String> queries) {

  VariantHit merge(VariantHit o) {
    List<String> qs = new ArrayList<>(queries);
    qs.addAll(o.queries);
    return new VariantHit(Math.max(r, o.r), qs);
  }

  /**
   * Searches one vector index with every variant (vectors come from the context's one batch) and
   * keeps each id's best retrieval score {@code r = clamp(2·cos − 1)}, in first-hit order.
   */
  static Map<String, VariantHit> search(VectorIndex vectors, String kind, RouteQuery query, String namespace,
      int limit) {
    Map<String, VariantHit> best = new LinkedHashMap<>();
    for (String q : query.variants()) {
      for (ScoredId hit : vectors.search(namespace, kind, query.vector(q), limit, null)) {
        best.merge(hit.id(), new VariantHit(Scores.retrieval(hit.score()), List.of(q)), VariantHit::merge);
      }
    }
    return best;
  }
}
