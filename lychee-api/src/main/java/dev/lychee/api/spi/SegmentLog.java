package dev.lychee.api.spi;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import java.util.List;

/**
 * Closed segments and their encoding state, and the one write that turns a segment into memory:
 * {@link #commitEncoding}, which puts the segment's records and nodes and marks it encoded in one
 * transaction. Records and nodes have no other write path, so whatever {@link RecordLog} and
 * {@link NodeLog} return came from an encoded segment.
 */
public interface SegmentLog {

  /**
   * Stores a closed segment with a state, unless a stored segment of its session holds one of its
   * turn indices. The check and the write are one atomic step (one transaction, under the lock that
   * serialises writes to the session), so of two writers closing overlapping segments of one
   * session at once, only the first stores its segment, and no turn ever lies in two segments.
   *
   * <p>Overlap means sharing a turn index, not overlapping first-to-last ranges: a segment of late
   * turns may lie inside the range of a segment that skipped them.
   *
   * @return true when this call stored the segment; false when a stored segment of its session
   *     holds one of its turns (this very segment included, as after a retry or when another
   *     writer closed the same segment): then nothing was written, and the writer should segment
   *     again from after the stored segments ({@link #segmentedThrough}) rather than encode it
   */
  boolean putSegment(Segment segment, SegmentState state);

  /**
   * Changes a stored segment's state and error text (nullable).
   *
   * @throws IllegalArgumentException if no such segment is stored
   */
  void setSegmentState(String namespace, String segmentId, SegmentState state, String error);

  /** All stored segments of a namespace, by session then first turn. */
  List<StoredSegment> segments(String namespace);

  /**
   * The stored segments of a namespace that are not encoded yet (every state but
   * {@link SegmentState#ENCODED}), by session then first turn: exactly what {@link #segments}
   * lists in those states. The write path's periodic sweep, its resume on open and
   * {@code encodePending} read these alone, so that their cost follows the work waiting rather
   * than the namespace's whole history. The default filters {@link #segments}, so a store that does
   * not override it keeps working; a store with an index on the state answers it from that index.
   */
  default List<StoredSegment> pendingSegments(String namespace) {
    return segments(namespace).stream().filter(s -> s.state() != SegmentState.ENCODED).toList();
  }

  /** The highest turn index of the session that lies in a stored segment, or -1. */
  int segmentedThrough(String namespace, String session);

  /**
   * Commits one segment's encoding atomically: records and nodes are put and the segment's state
   * becomes ENCODED, all in one transaction. After a crash either all of it is visible or none.
   * A record whose id is stored is merged into it ({@link MemoryRecord#mergedWith}) and keeps its
   * place; so is a node ({@link EvidenceNode#mergedWith}); equal ids within one call merge too.
   *
   * @throws IllegalArgumentException if no such segment is stored (then nothing is written)
   */
  void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes);
}
