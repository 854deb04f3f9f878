package dev.lychee.server.api;

import dev.lychee.api.Segment;
import dev.lychee.api.StoredSegment;

/**
 * A stored segment: its turn range, why it closed, the boundary score and probability (null when
 * not a number), and its encoding state.
 */
public record SegmentView(
    String id, String session, int firstTurn, int lastTurn, int tokens, String closeReason, Double score,
    Double probability, String state, String error) {
  public static SegmentView of(StoredSegment s) {
    Segment g = s.segment();
    return new SegmentView(g.id(), g.session(), g.firstIndex(), g.lastIndex(), g.tokens(),
        g.reason() == null ? null : g.reason().name().toLowerCase(java.util.Locale.ROOT), finite(g.score()),
        finite(g.probability()), s.state().name().toLowerCase(java.util.Locale.ROOT), s.error());
  }

  private static Double finite(double d) {
    return Double.isFinite(d) ? d : null;
  }
}
