package dev.lychee.core.score;

import dev.lychee.api.Candidate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dedupes and orders candidates: hits are collected by id with the merge rule of
 * docs/defaults.md §4.5 (the higher score wins, a repeated hit only adds provenance; scores are
 * never summed), and
 * {@link #sorted()} returns them best first with a deterministic tie order, which is what the
 * {@link dev.lychee.api.spi.RecallChannel} contract asks of a channel's result. Built-in and
 * custom channels use it alike:
 *
 * <pre>{@code
 * CandidateMerger out = new CandidateMerger();
 * for (...) {
 *   out.add(Candidate.ofRecord(record, score, similarity, provenance));
 * }
 * return out.sorted();
 * }</pre>
 *
 * <p>Not thread-safe; use one per channel call.
 */
public final class CandidateMerger {
  private final Map<String, Candidate> byId = new LinkedHashMap<>();

  public void add(Candidate c) {
    byId.merge(c.id(), c, Candidate::mergedWith);
  }

  public void addAll(Collection<Candidate> cs) {
    cs.forEach(this::add);
  }

  public boolean isEmpty() {
    return byId.isEmpty();
  }

  /** The merged candidates, best score first (ties: higher similarity, then id). */
  public List<Candidate> sorted() {
    List<Candidate> out = new ArrayList<>(byId.values());
    out.sort(BY_SCORE);
    return out;
  }

  /** Best score first, then higher similarity, then id, for a deterministic order. */
  public static final Comparator<Candidate> BY_SCORE = Comparator.comparingDouble(Candidate::score).reversed()
      .thenComparing(Comparator.comparingDouble(Candidate::similarity).reversed())
      .thenComparing(Candidate::id);
}
