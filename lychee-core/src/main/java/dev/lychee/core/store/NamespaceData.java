package dev.lychee.core.store;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Everything one namespace holds in an {@link InMemoryRecordStore}, guarded by one read/write lock.
 * Fields are only touched while holding {@link #lock}; the store never hands out these
 * collections, only copies.
 */
final class NamespaceData {
  final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** session -> (index -> turn); sessions in the order their first turn was stored. */
  final Map<String, TreeMap<Integer, RawTurn>> turns = new LinkedHashMap<>();
  final Map<String, StoredSegment> segments = new HashMap<>();
  /** Records in first-insertion order (a merge keeps the position). */
  final Map<String, MemoryRecord> records = new LinkedHashMap<>();
  final Map<String, EvidenceNode> nodes = new LinkedHashMap<>();
  final Bm25Index turnText = new Bm25Index();
  final Bm25Index recordText = new Bm25Index();
  long turnCount;

  RawTurn turn(TurnRef ref) {
    TreeMap<Integer, RawTurn> s = turns.get(ref.session());
    return s == null ? null : s.get(ref.index());
  }

  /** Puts records as {@link MergeOnPut} plans them; a merged record keeps its map position. */
  void putRecords(List<MemoryRecord> incoming) {
    for (MergeOnPut.Placed<MemoryRecord> p : MergeOnPut.records(incoming, id -> stored(records, id))) {
      records.put(p.value().id(), p.value());
      recordText.put(p.value().id(), RecordSearchText.of(p.value()));
    }
  }

  void putNodes(List<EvidenceNode> incoming) {
    for (MergeOnPut.Placed<EvidenceNode> p : MergeOnPut.nodes(incoming, id -> stored(nodes, id))) {
      nodes.put(p.value().id(), p.value());
    }
  }

  /** Positions are kept by the insertion-ordered map itself, so any position but NEW will do. */
  private static <T> Optional<MergeOnPut.Placed<T>> stored(Map<String, T> values, String id) {
    return Optional.ofNullable(values.get(id)).map(v -> new MergeOnPut.Placed<>(v, 0));
  }

  void setState(String segmentId, SegmentState state, String error) {
    StoredSegment s = segments.get(segmentId);
    if (s == null) {
      throw new IllegalArgumentException("no segment '" + segmentId + "' in this namespace");
    }
    segments.put(segmentId, new StoredSegment(s.segment(), state, error));
  }

  void clear() {
    turns.clear();
    segments.clear();
    records.clear();
    nodes.clear();
    turnText.clear();
    recordText.clear();
    turnCount = 0;
  }
}
