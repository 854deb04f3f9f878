package dev.lychee.core.recall;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.RecallContext;
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
   * Searches one vector index with every embedded variant (vectors come from the context's one batch, and
   * all variants go to the index in one {@link VectorIndex#searchAll} call, shared with the
   * plan's other routes through {@link RecallContext#searchAll}) and keeps each id's
   * best retrieval score {@code r = clamp(2·cos − 1)}, in first-hit order.
   */
  static Map<String, VariantHit> search(VectorIndex vectors, String kind, RecallContext context, RouteQuery query,
      int limit) {
    List<String> variants = query.embeddedVariants(); // the hits come in this order
    List<List<ScoredId>> hits = context.searchAll(vectors, kind, query, limit);
    Map<String, VariantHit> best = new LinkedHashMap<>();
    for (int i = 0; i < variants.size(); i++) {
      List<String> q = List.of(variants.get(i));
      for (ScoredId hit : hits.get(i)) {
        best.merge(hit.id(), new VariantHit(Scores.retrieval(hit.score()), q), VariantHit::merge);
      }
    }
    return best;
  }
}
