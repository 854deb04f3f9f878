package dev.lychee.core.ingest;

import java.util.Objects;

/**
 * One segment that could not be encoded (it stays PENDING, its turns are stored).
 *
 * @param namespace the namespace
 * @param segmentId the segment's id
 * @param kind a short, stable description of the cause, the same for every segment that failed
 *     the same way (for example "OPENAI_API_KEY is not set" or "http://127.0.0.1:11434/api/chat
 *     timed out"), so callers can print one line per kind
 * @param message the full error text
 */
public record SegmentFailure(String namespace, String segmentId, String kind, String message) {
  public SegmentFailure {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(segmentId, "segmentId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }
}
