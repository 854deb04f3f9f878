package dev.lychee.api;

import java.util.Objects;

/**
 * One selected evidence item, in final order.
 *
 * @param rank 1-based position in the final list
 * @param score the final score the selector ranked it by
 * @param candidate the candidate with its provenance
 */
public record Evidence(int rank, double score, Candidate candidate) {
  public Evidence {
    if (rank < 1) {
      throw new IllegalArgumentException("rank is 1-based: " + rank);
    }
    Objects.requireNonNull(candidate, "candidate");
  }

  public String text() {
    return candidate.text();
  }

  public java.util.List<TurnRef> turns() {
    return candidate.turns();
  }
}
