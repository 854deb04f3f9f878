package dev.lychee.api;

/** What a recall candidate is. */
public enum CandidateKind {
  /** A memory record. */
  RECORD,
  /** One raw turn. */
  RAW_TURN,
  /** A window of neighbouring raw turns around a strong hit. */
  WINDOW,
  /** Anything a user-written channel returns that is none of the above. */
  OTHER
}
