package dev.lychee.api;

/** Life cycle of a closed segment in a store. */
public enum SegmentState {
  /** Turns are still being collected (only used by stores that persist the open segment). */
  OPEN,
  /** Closed, waiting for (or between attempts at) encoding. Its raw turns are stored. */
  PENDING,
  /** Encoded: its records and evidence nodes are stored. */
  ENCODED,
  /** Encoding failed; the error is kept and the segment can be retried. */
  FAILED
}
