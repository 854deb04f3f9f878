package dev.lychee.api;

import java.time.Instant;
import java.util.Objects;

/**
 * The right to encode one pending segment until {@code leaseUntil}, held by {@code owner}.
 *
 * @param segment the segment to encode
 * @param owner who holds the claim (a process or worker id)
 * @param leaseUntil when the claim lapses; a lapsed claim may be taken by another owner
 * @param attempts encoding attempts made before this claim (0 for a fresh segment)
 */
public record SegmentClaim(Segment segment, String owner, Instant leaseUntil, int attempts) {
  public SegmentClaim {
    Objects.requireNonNull(segment, "segment");
    Checks.nonBlank(owner, "owner");
    Objects.requireNonNull(leaseUntil, "leaseUntil");
    if (attempts < 0) {
      throw new IllegalArgumentException("attempts must be >= 0: " + attempts);
    }
  }

  /** The segment's namespace. */
  public String namespace() {
    return segment.namespace();
  }

  /** The segment's id. */
  public String segmentId() {
    return segment.id();
  }
}
