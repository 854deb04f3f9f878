package dev.lychee.core.score;

import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.api.TemporalScope;

/**
 * How a candidate relates in time to a date filter: its event span (the record's resolved temporal
 * span) or, failing that, the day its source dialogue took place.
 */
public final class TemporalMatch {
  private TemporalMatch() {}

  /** How a candidate matches a filter. */
  public enum Kind {
    /** The event span overlaps the filter. */
    EVENT,
    /** No event span overlaps, but the conversation date does. */
    MENTIONED,
    /** Neither. */
    NONE
  }

  public static Kind of(Candidate c, DateRange filter) {
    if (filter == null) {
      return Kind.NONE;
    }
    TemporalScope t = c.temporal();
    if (t != null && t.span() != null && t.span().overlaps(filter)) {
      return Kind.EVENT;
    }
    if (c.mentionedAt() != null && filter.contains(c.mentionedAt().toLocalDate())) {
      // dialogue excerpts have no event span of their own: their conversation date stands in for it
      boolean episode = c.kind() != dev.lychee.api.CandidateKind.RECORD && (t == null || t.span() == null);
      return episode ? Kind.EVENT : Kind.MENTIONED;
    }
    return Kind.NONE;
  }
}
