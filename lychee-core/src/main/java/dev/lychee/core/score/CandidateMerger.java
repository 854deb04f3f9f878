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

  /**
   * The merged candidates in the order their ids were first added, unsorted and without a copy: for
   * a caller that sorts what it makes of them anyway. A view; do not add while reading it.
   */
  public Collection<Candidate> unordered() {
    return java.util.Collections.unmodifiableCollection(byId.values());
  }

  /** The merged candidates, best score first (ties: higher similarity, then id). */
  public List<Candidate> sorted() {
    List<Candidate> out = new ArrayList<>(byId.values());
    out.sort(BY_SCORE);
    return out;
  }

  /**
   * Best score first, then higher similarity, then id, for a deterministic order. Written out
   * rather than chained from {@code Comparator.comparingDouble(...).reversed().thenComparing(...)}
   * (the same order, {@link Double#compare} on each score): every route's candidates are sorted
   * with it several times per recall, and the chain's layers of lambdas showed in the profile of a
   * large namespace (measurements.md §6, round twelve).
   */
  public static final Comparator<Candidate> BY_SCORE = CandidateMerger::byScore;

  private static int byScore(Candidate a, Candidate b) {
    int c = Double.compare(b.score(), a.score());
    if (c != 0) {
      return c;
    }
    c = Double.compare(b.similarity(), a.similarity());
    return c != 0 ? c : a.id().compareTo(b.id());
  }
}
