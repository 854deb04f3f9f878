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
 * matches. Thread-safe.
 */
public interface RecallChannel {

  /** The channel's name, used in provenance and in configuration. */
  String name();

  List<Candidate> recall(RecallRoute route, RecallContext context);
}
