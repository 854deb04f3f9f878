package dev.lychee.api;

/** Why a segment was closed; recorded on every segment for inspection. */
public enum CloseReason {
  /** The boundary probability reached the threshold: the topic turned. */
  SEMANTIC_BOUNDARY,
  /** The segment reached its target length. */
  TARGET_LENGTH,
  /** Adding the next exchange would have passed the hard token cap. */
  CAPACITY_LIMIT,
  /** A single exchange was larger than the hard cap on its own. */
  OVERSIZED_EXCHANGE,
  /** A fragment of one oversized turn, closed on its own. */
  OVERSIZED_TURN_FRAGMENT,
  /** A fixed window filled up (fixed-window segmenter). */
  WINDOW_FULL,
  /** One segment per exchange (per-turn segmenter, the eager baseline). */
  PER_EXCHANGE,
  /** The session was flushed. */
  SESSION_FLUSH,
  /**
   * Turns stored after later turns of their session had been segmented (explicit indices sent out
   * of order), closed on their own when the session is flushed.
   */
  LATE_TURNS
}
