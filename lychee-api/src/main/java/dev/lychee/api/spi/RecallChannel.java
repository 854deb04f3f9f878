package dev.lychee.api.spi;

import dev.lychee.api.Candidate;
import dev.lychee.api.RecallRoute;
import java.util.List;

/**
 * One way of finding evidence for a route: record vectors, evidence nodes, temporal ranges, raw
 * turns, lexical search, or a channel a user writes. Channels are non-generative.
 *
 * <p>Contract: returns candidates of the context's namespace only, each with provenance naming
 * this channel, scores in [0, 1], best first, without duplicate ids; an empty list when nothing
 * matches. Thread-safe. The conformance suite {@code BaseRecallChannelTestCase} in lychee-core's
 * test-jar checks all of it.
 *
 * <p>Inputs: read {@code context.query(route)} ({@link RouteQuery}): the variants to search with,
 * their vectors (already embedded, one batch per question), the date filter and the content terms.
 * A channel never embeds or re-derives them itself. A channel that searches a {@link VectorIndex}
 * with the variants should do so through {@link RecallContext#searchAll}: the pipeline's context
 * then runs each search once for all routes of the plan ({@link VectorSearches}), with the same hits
 * as a direct {@code searchAll} on the index. {@code CandidateMerger} in lychee-core dedupes
 * hits by id (higher score wins, provenance is merged) and returns them in the order the contract
 * asks for.
 *
 * <p>Scores that compete with the built-in channels. Every channel's hits are merged per route by
 * id and the best score wins, so the scale matters. The built-in field scores are: record vector
 * {@code 0.40 + 0.30·r} (0.40–0.70, with {@code r = max(0, 2·cos − 1)}); raw turn
 * {@code (0.34 + 0.42·r)·μ + β}, about 0.34–0.76 for most question types; evidence node
 * {@code r·w} with w between 0.32 and 0.42; temporal range 0.28 (month), 0.34 or 0.42 (day);
 * lexical 0.20–0.50 for turns and 0.18–0.48 for records. A custom channel whose scores lie in
 * 0.20–0.60 competes with them on equal terms; above about 0.76 its hits outrank nearly every
 * built-in one; below 0.20 they only fill the pool. Set a candidate's similarity to the channel's
 * own query–evidence similarity in [0, 1] (0 if it has none): the reranker and the route score use
 * it. docs/architecture.md §3 describes the pipeline these scores flow through.
 */
public interface RecallChannel {

  /** The channel's name, used in provenance and in configuration. */
  String name();

  List<Candidate> recall(RecallRoute route, RecallContext context);

  /**
   * Whether this channel reads the variants' vectors. A channel that returns {@code false} reads
   * only the texts of its {@link RouteQuery} (variants, date filter, terms) and the store: the
   * pipeline may then run it while the question's query batch is being embedded, on another
   * thread, with a context whose route queries hold no vectors ({@link RouteQuery#vector} throws)
   * and whose observer is {@link RecallObserver#NONE}. Its hits are used exactly as if it had run
   * in turn (issue 21). Default {@code true}: the channel runs after the batch, on the recalling
   * thread.
   */
  default boolean needsVectors() {
    return true;
  }
}
