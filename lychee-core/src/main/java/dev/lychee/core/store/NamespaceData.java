package dev.lychee.core.store;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
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

  void putRecord(MemoryRecord r) {
    MemoryRecord old = records.get(r.id());
    MemoryRecord merged = old == null ? r : old.mergedWith(r);
    records.put(r.id(), merged);
    recordText.put(r.id(), recordSearchText(merged));
  }

  void putNode(EvidenceNode n) {
    EvidenceNode old = nodes.get(n.id());
    nodes.put(n.id(), old == null ? n : old.mergedWith(n));
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

  /** What lexical record search runs over: type, text, entities and tags. */
  static String recordSearchText(MemoryRecord r) {
    return r.type().wireName() + " " + r.text() + " " + String.join(" ", r.entities()) + " "
        + String.join(" ", r.tags());
  }
}
