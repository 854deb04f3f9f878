package dev.lychee.api.spi;

import dev.lychee.api.Candidate;
import java.util.List;

/**
 * Merges the rankings of several routes into one.
 *
 * <p>Contract: every id appears once; the returned score is the fused score in [0, 1]; the list is
 * in selection order (items a route quota protects first, then by fused score), and holds the
 * whole pool, not just the top k, so a selector can still trade relevance for diversity.
 */
public interface Fuser {
  List<Candidate> fuse(List<RouteRanking> rankings, RecallContext context);
}
