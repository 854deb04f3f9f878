package dev.lychee.core.organize;

/** How records are grouped into event-frame nodes. */
public enum EventFrameMode {
  /**
   * The paper's definition (default): one frame per closed segment, keyed and labelled by the
   * segment's session and turn range, holding all the records the segment produced.
   */
  SEGMENT,
  /**
   * The reference code's grouping: records bucketed by {@code (session, ⌊min(evidence turn)/4⌋)},
   * the frame's range being the min and max evidence turn of its bucket; key
   * {@code <session>:<bucket>:<start>-<end>}.
   */
  TURN_BUCKETS
}
