package dev.lychee.core.ingest;

import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Builds a {@link MemoryStatus} from the store's segments, the vector index, the queue and the failures seen. */
final class StatusReport {
  private StatusReport() {}

  static MemoryStatus of(String namespace, RecordStore store, VectorIndex vectors, EncodeQueue queue, FailureLog failures,
      Clock clock) {
    Map<SegmentState, Integer> counts = new EnumMap<>(SegmentState.class);
    for (SegmentState s : SegmentState.values()) {
      counts.put(s, 0);
    }
    String storedError = null;
    Map<String, SegmentFailure> failed = failures.failures(namespace);
    Map<String, Integer> byKind = new LinkedHashMap<>();
    for (StoredSegment s : store.segments(namespace)) {
      counts.merge(s.state(), 1, Integer::sum);
      if (s.state() == SegmentState.ENCODED) {
        continue;
      }
      if (s.error() != null) {
        storedError = s.error();
      }
      SegmentFailure f = failed.get(s.segment().id());
      byKind.merge(f != null ? f.kind() : s.error() != null ? "failed in an earlier run: " + withoutSegment(s.error())
          : "waiting (queued, or behind an earlier segment of its session)", 1, Integer::sum);
    }
    Optional<Duration> oldest = queue.oldestQueued(namespace).map(t -> Duration.between(t, clock.instant()));
    String error = failures.last(namespace).map(SegmentFailure::message).orElse(storedError);
    long turns = store.countTurns(namespace);
    // two counts, no scan: which turns lack a vector is only worked out by the rebuild itself
    long withoutVectors = Math.max(0, turns - vectors.size(namespace, VectorIndex.TURNS));
    return new MemoryStatus(namespace, turns, withoutVectors, counts, queue.depth(namespace),
        queue.stoppedSessions(namespace), oldest, Optional.ofNullable(error), byKind);
  }

  /** The first line of a stored error without the segment id, so that equal causes count together. */
  private static String withoutSegment(String error) {
    int nl = error.indexOf('\n');
    String line = nl < 0 ? error : error.substring(0, nl);
    line = line.replaceAll(" on segment \\S+( \\(attempt \\d+\\))?:", ":");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }
}
