package dev.lychee.server.api;

import dev.lychee.api.StoredSegment;

/** A stored segment: its turn range and encoding state. */
public record SegmentView(String id, String session, int firstTurn, int lastTurn, int tokens, String state, String error) {
  public static SegmentView of(StoredSegment s) {
    return new SegmentView(s.segment().id(), s.segment().session(), s.segment().firstIndex(), s.segment().lastIndex(),
        s.segment().tokens(), s.state().name().toLowerCase(java.util.Locale.ROOT), s.error());
  }
}
