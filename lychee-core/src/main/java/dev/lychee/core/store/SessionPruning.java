package dev.lychee.core.store;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.util.List;
import java.util.Set;

/**
 * The cascade of {@code RecordStore.forget(namespace, session)} as pure functions, so that every
 * store prunes records and nodes the same way: a record loses its evidence turns in the session
 * and is removed when none is left; a node loses removed records (and its links to the session)
 * and is removed when no record is left.
 */
public final class SessionPruning {
  private SessionPruning() {}

  /**
   * The record without evidence in {@code session}: {@code null} when nothing is left, the same
   * instance when nothing changes. When the record's own session is the forgotten one, the session of
   * its first remaining evidence turn takes its place.
   */
  public static MemoryRecord withoutSession(MemoryRecord r, String session) {
    List<TurnRef> kept = r.evidence().stream().filter(t -> !t.session().equals(session)).toList();
    if (kept.isEmpty()) {
      return null;
    }
    if (kept.size() == r.evidence().size() && !r.session().equals(session)) {
      return r;
    }
    String home = r.session().equals(session) ? kept.get(0).session() : r.session();
    return new MemoryRecord(r.id(), r.namespace(), r.type(), r.text(), r.entities(), r.tags(),
        r.temporal(), kept, home, r.segmentId(), r.sourceRole(), r.createdAt());
  }

  /**
   * The node without the removed records and without links to {@code session}: {@code null} when
   * no record is left, the same instance when nothing changes.
   */
  public static EvidenceNode withoutRecords(EvidenceNode n, Set<String> removedRecords, String session) {
    List<String> records = n.recordIds().stream().filter(id -> !removedRecords.contains(id)).toList();
    if (records.isEmpty()) {
      return null;
    }
    List<String> sessions = n.sessions().stream().filter(s -> !s.equals(session)).toList();
    List<TurnRange> ranges = n.turnRanges().stream().filter(t -> !t.session().equals(session)).toList();
    if (records.size() == n.recordIds().size() && sessions.size() == n.sessions().size()
        && ranges.size() == n.turnRanges().size()) {
      return n;
    }
    return new EvidenceNode(n.id(), n.namespace(), n.kind(), n.key(), n.label(), n.searchText(),
        records, sessions, n.entities(), n.tags(), n.span(), ranges);
  }
}
