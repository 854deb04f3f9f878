package dev.lychee.core.ingest;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The last failure of every segment that failed in this process and is not encoded since, and the
 * last failure per namespace: what {@code status} reports per cause. Thread-safe.
 */
final class FailureLog {
  private final Map<String, SegmentFailure> last = new HashMap<>();
  private final Map<String, Map<String, SegmentFailure>> bySegment = new HashMap<>();

  synchronized void remember(SegmentFailure failure) {
    last.put(failure.namespace(), failure);
    bySegment.computeIfAbsent(failure.namespace(), k -> new HashMap<>()).put(failure.segmentId(), failure);
  }

  synchronized void forget(String namespace, String segmentId) {
    Map<String, SegmentFailure> m = bySegment.get(namespace);
    if (m != null) {
      m.remove(segmentId);
    }
  }

  /** Forgets everything of a namespace (it was forgotten, or its segments are retried). */
  synchronized void clear(String namespace) {
    last.remove(namespace);
    bySegment.remove(namespace);
  }

  synchronized Map<String, SegmentFailure> failures(String namespace) {
    return Map.copyOf(bySegment.getOrDefault(namespace, Map.of()));
  }

  synchronized Optional<SegmentFailure> last(String namespace) {
    return Optional.ofNullable(last.get(namespace));
  }
}
