package dev.lychee.core.ingest;

import dev.lychee.api.SegmentState;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The write-side state of one namespace, for operators: {@code ./lychee status NS}.
 *
 * @param namespace the namespace
 * @param turns stored turns
 * @param turnsWithoutVectors stored turns the vector index holds no vector for (the store's turn
 *     count less the index's): lost by a crash or a failed embedding, they are found by lexical
 *     search but not by vector search until the next open or {@code encodePending} embeds them
 *     again; 0 when every turn has its vector
 * @param segments stored segments per state (every state present, 0 when none)
 * @param queued segments queued or being encoded in this process
 * @param stoppedSessions sessions whose background encoding stopped after a failure; their
 *     segments stay PENDING until {@code encodePending}, the session's next segment or a restart
 * @param oldestPendingAge how long the oldest segment this process knows to be waiting has
 *     waited; empty when nothing waits or the wait began before this process started
 * @param lastError the last encoding error: this process's, else one stored with a PENDING
 *     segment; empty when none
 * @param pendingByKind the segments not encoded yet, counted per cause (the failure kind of
 *     their last attempt in this process, or why they wait), for one summary line per cause
 */
public record MemoryStatus(
    String namespace,
    long turns,
    long turnsWithoutVectors,
    Map<SegmentState, Integer> segments,
    int queued,
    int stoppedSessions,
    Optional<Duration> oldestPendingAge,
    Optional<String> lastError,
    Map<String, Integer> pendingByKind) {

  public MemoryStatus {
    segments = Map.copyOf(segments);
    pendingByKind = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(pendingByKind));
  }

  /** Segments in a state. */
  public int segments(SegmentState state) {
    return segments.getOrDefault(state, 0);
  }

  /** True when no segment waits for encoding. */
  public boolean idle() {
    return queued == 0 && segments(SegmentState.PENDING) == 0 && segments(SegmentState.FAILED) == 0;
  }
}
