package dev.lychee.api.spi;

import dev.lychee.api.Candidate;
import dev.lychee.api.RecallRoute;
import java.util.List;
import java.util.Map;

/**
 * Watches one recall as it runs, for inspection and debugging: what each channel found on each
 * route, each route's ranking, the fused pool, the reranker's features, the reranked pool and each
 * pick of the selector. Every hook does nothing by default and must not change what it is shown;
 * stages call the hooks of {@link RecallContext#observer()}, which is {@link #NONE} unless a caller
 * asked for a trace, so an untraced recall pays nothing.
 *
 * <p>A custom stage may call the hooks too (a reranker its own features, a selector its picks). Hooks
 * are called on the recalling thread, in pipeline order.
 */
public interface RecallObserver {

  /** The observer that ignores everything. */
  RecallObserver NONE = new RecallObserver() {
    @Override
    public boolean wantsFeatures() {
      return false;
    }
  };

  /** One channel's candidates for one route, as the channel returned them. */
  default void channel(RecallRoute route, String channel, List<Candidate> candidates) {}

  /** One route's candidates after per-route scoring. */
  default void route(RouteRanking ranking) {}

  /** The fused pool, before reranking. */
  default void fused(List<Candidate> pool) {}

  /**
   * The features a reranker computed for one candidate (names of the reranker's choosing, for
   * example {@code similarity} or {@code lexical}), and the score they gave.
   */
  default void features(Candidate candidate, Map<String, Double> features, double score) {}

  /**
   * Whether this observer looks at {@link #features}: when false a reranker may skip building the
   * features of every candidate of the pool for it. True by default; {@link #NONE} and an observer
   * that only times the stages say false.
   */
  default boolean wantsFeatures() {
    return true;
  }

  /** The pool after reranking, in its new order. */
  default void reranked(List<Candidate> pool) {}

  /**
   * One step of the selector: the candidate taken, its relevance, its highest similarity to what
   * was taken before, and the value it won with (for MMR, relevance minus the diversity penalty).
   */
  default void picked(int step, Candidate candidate, double relevance, double maxSimilarity, double value) {}
}
