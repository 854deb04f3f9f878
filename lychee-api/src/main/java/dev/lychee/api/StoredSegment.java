package dev.lychee.api;

import java.util.Objects;

/**
 * A segment together with its encoding state, as a store keeps it.
 *
 * @param segment the segment
 * @param state its state
 * @param error the last encoding error; nullable (null unless state is FAILED or a retry is
 *     pending after a failure)
 */
public record StoredSegment(Segment segment, SegmentState state, String error) {
  public StoredSegment {
    Objects.requireNonNull(segment, "segment");
    Objects.requireNonNull(state, "state");
  }
}
