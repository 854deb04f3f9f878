package dev.lychee.server.api;

import dev.lychee.api.SegmentState;
import dev.lychee.core.ingest.MemoryStatus;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a namespace holds and how far encoding has got: the library's {@link MemoryStatus} plus
 * the session and record counts of the store.
 *
 * @param segments stored segments per state (every state present, lower case)
 * @param segmentsPending stored segments not encoded yet
 * @param queued segments queued or being encoded in this server process
 * @param stoppedSessions sessions whose background encoding stopped after a failure (their
 *     segments stay pending until {@code encode-pending} or the session's next segment)
 * @param oldestPendingAgeMs how long the oldest queued segment has waited; null when none waits
 * @param lastError the last encoding error; null when none
 * @param pendingByKind segments not encoded yet, per cause
 * @param idle true when no segment waits for encoding (none queued, pending or failed)
 * @param turnsWithoutVectors stored turns the vector index holds no vector for (an embedding that
 *     failed, or vectors a crash lost); rebuilt on the next open or by {@code encode-pending}
 */
public record StatusView(
    String namespace, long turns, int sessions, int records, Map<String, Integer> segments, long segmentsPending,
    int queued, int stoppedSessions, Long oldestPendingAgeMs, String lastError, Map<String, Integer> pendingByKind,
    boolean idle, long turnsWithoutVectors) {

  /** The wire view of a library status, with the store's session and record counts. */
  public static StatusView of(MemoryStatus s, int sessions, int records) {
    Map<String, Integer> states = new LinkedHashMap<>();
    for (SegmentState state : SegmentState.values()) {
      states.put(state.name().toLowerCase(Locale.ROOT), s.segments(state));
    }
    return new StatusView(s.namespace(), s.turns(), sessions, records, states, s.segments(SegmentState.PENDING),
        s.queued(), s.stoppedSessions(), s.oldestPendingAge().map(d -> d.toMillis()).orElse(null),
        s.lastError().orElse(null), s.pendingByKind(), s.idle(), s.turnsWithoutVectors());
  }
}
