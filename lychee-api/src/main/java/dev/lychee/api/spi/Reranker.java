package dev.lychee.api.spi;

import dev.lychee.api.Candidate;
import java.util.List;

/**
 * Optionally rescores fused candidates (for example with a cross-encoder or a non-generative
 * scorer).
 *
 * <p>Contract: returns the same candidates (it may drop none) with new scores in [0, 1], sorted by
 * the new score descending. On an internal failure it returns the input unchanged.
 */
public interface Reranker {
  List<Candidate> rerank(List<Candidate> candidates, RecallContext context);

  /** The reranker that changes nothing. */
  Reranker NONE = (candidates, context) -> candidates;
}
