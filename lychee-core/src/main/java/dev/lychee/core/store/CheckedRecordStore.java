package dev.lychee.core.store;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The {@link RecordStore} argument contract, written once, in front of a backend that only stores:
 * names are non-null and not blank, values belong to the namespace and session they are written
 * to, {@code k} is positive, and nothing is called after {@link #close()}. Every store module
 * binds its backend through {@link #of}, so a backend may assume well-formed arguments.
 *
 * <p>Failing checks throw {@link IllegalArgumentException} (or {@link NullPointerException} for a
 * missing value) before the backend is reached, so a refused call writes nothing.
 */
public final class CheckedRecordStore implements RecordStore {
  private final RecordStore storage;
  private volatile boolean closed;

  private CheckedRecordStore(RecordStore storage) {
    this.storage = Objects.requireNonNull(storage, "storage");
  }

  /** {@code store} behind the checks; a store that is already checked comes back as it is. */
  public static RecordStore of(RecordStore store) {
    return store instanceof CheckedRecordStore ? store : new CheckedRecordStore(store);
  }

  /** The backend behind the checks (for diagnostics and tests; calls on it skip the checks). */
  public RecordStore storage() {
    return storage;
  }

  // ---- checks ----

  private String ns(String namespace) {
    if (closed) {
      throw new IllegalStateException("record store is closed");
    }
    return nonBlank(namespace, "namespace");
  }

  private static String nonBlank(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }

  private static void owned(String namespace, String actual, String what) {
    if (!namespace.equals(actual)) {
      throw new IllegalArgumentException(what + " belongs to namespace '" + actual + "', not '" + namespace + "'");
    }
  }

  private static List<RawTurn> turnsOf(String namespace, String session, List<RawTurn> turns) {
    Objects.requireNonNull(turns, "turns");
    for (RawTurn t : turns) {
      Objects.requireNonNull(t, "turn");
      owned(namespace, t.namespace(), "turn " + t.id());
      if (!t.session().equals(session)) {
        throw new IllegalArgumentException(
            "turn " + t.id() + " belongs to session '" + t.session() + "', not '" + session + "'");
      }
    }
    return turns;
  }

  private static void recordsOf(String namespace, List<MemoryRecord> records) {
    Objects.requireNonNull(records, "records");
    for (MemoryRecord r : records) {
      Objects.requireNonNull(r, "record");
      owned(namespace, r.namespace(), "record " + r.id());
    }
  }

  private static void nodesOf(String namespace, List<EvidenceNode> nodes) {
    Objects.requireNonNull(nodes, "nodes");
    for (EvidenceNode n : nodes) {
      Objects.requireNonNull(n, "node");
      owned(namespace, n.namespace(), "node " + n.id());
    }
  }

  private static <T> Collection<T> noNulls(Collection<T> values, String what) {
    Objects.requireNonNull(values, what);
    for (T v : values) {
      Objects.requireNonNull(v, what);
    }
    return values;
  }

  // ---- turns ----

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns) {
    ns(namespace);
    nonBlank(session, "session");
    turnsOf(namespace, session, turns);
    return turns.isEmpty() ? List.of() : storage.appendTurns(namespace, session, turns);
  }

  /** The backend runs {@code admit} inside its transaction; what it returns is checked there too. */
  @Override
  public List<RawTurn> appendTurns(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    ns(namespace);
    nonBlank(session, "session");
    Objects.requireNonNull(admit, "admit");
    return storage.appendTurns(namespace, session, next -> turnsOf(namespace, session, admit.apply(next)));
  }

  @Override
  public int nextTurnIndex(String namespace, String session) {
    ns(namespace);
    return storage.nextTurnIndex(namespace, nonBlank(session, "session"));
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    ns(namespace);
    return storage.turn(namespace, Objects.requireNonNull(ref, "ref"));
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    ns(namespace);
    nonBlank(session, "session");
    return from > to ? List.of() : storage.turns(namespace, session, from, to);
  }

  @Override
  public List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    ns(namespace);
    return refs.isEmpty() ? List.of() : storage.turns(namespace, noNulls(refs, "ref"));
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    ns(namespace);
    return storage.turns(namespace, nonBlank(session, "session"));
  }

  @Override
  public List<String> sessions(String namespace) {
    return storage.sessions(ns(namespace));
  }

  @Override
  public List<String> namespaces() {
    if (closed) {
      throw new IllegalStateException("record store is closed");
    }
    return storage.namespaces();
  }

  @Override
  public long countTurns(String namespace) {
    return storage.countTurns(ns(namespace));
  }

  // ---- segments ----

  @Override
  public boolean putSegment(Segment segment, SegmentState state) {
    Objects.requireNonNull(segment, "segment");
    Objects.requireNonNull(state, "state");
    ns(segment.namespace());
    return storage.putSegment(segment, state);
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    ns(namespace);
    nonBlank(segmentId, "segmentId");
    storage.setSegmentState(namespace, segmentId, Objects.requireNonNull(state, "state"), error);
  }

  @Override
  public List<StoredSegment> segments(String namespace) {
    return storage.segments(ns(namespace));
  }

  @Override
  public List<StoredSegment> pendingSegments(String namespace) {
    return storage.pendingSegments(ns(namespace));
  }

  @Override
  public List<String> pendingNamespaces() {
    if (closed) {
      throw new IllegalStateException("record store is closed");
    }
    return storage.pendingNamespaces();
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    ns(namespace);
    return storage.segmentedThrough(namespace, nonBlank(session, "session"));
  }

  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records,
      List<EvidenceNode> nodes) {
    ns(namespace);
    nonBlank(segmentId, "segmentId");
    recordsOf(namespace, records);
    nodesOf(namespace, nodes);
    storage.commitEncoding(namespace, segmentId, records, nodes);
  }

  // ---- records and nodes ----

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    ns(namespace);
    return ids.isEmpty() ? List.of() : storage.records(namespace, noNulls(ids, "id"));
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    return storage.records(ns(namespace));
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    ns(namespace);
    return ids.isEmpty() ? List.of() : storage.nodes(namespace, noNulls(ids, "id"));
  }

  @Override
  public Map<String, List<String>> nodeRecordIds(String namespace, Collection<String> ids) {
    ns(namespace);
    return ids.isEmpty() ? Map.of() : storage.nodeRecordIds(namespace, noNulls(ids, "id"));
  }

  @Override
  public LinkedRecords linkedRecords(String namespace, Collection<String> nodeIds, int perNode) {
    ns(namespace);
    if (perNode < 0) {
      throw new IllegalArgumentException("perNode must be at least 0 (got " + perNode + ")");
    }
    return nodeIds.isEmpty() ? LinkedRecords.NONE : storage.linkedRecords(namespace, noNulls(nodeIds, "id"), perNode);
  }

  @Override
  public boolean awaitQuiet(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    return storage.awaitQuiet(timeout);
  }

  @Override
  public ReadPoint readPoint(String namespace) {
    ns(namespace);
    return storage.readPoint(namespace);
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    ns(namespace);
    return storage.nodes(namespace, Objects.requireNonNull(kind, "kind"));
  }

  // ---- text search ----

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    ns(namespace);
    Objects.requireNonNull(field, "field");
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0, got " + k);
    }
    return storage.searchText(namespace, field, query == null ? "" : query, k);
  }

  @Override
  public List<List<ScoredId>> searchTexts(String namespace, TextField field, List<String> queries, int k) {
    ns(namespace);
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(queries, "queries");
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0, got " + k);
    }
    List<String> texts = new java.util.ArrayList<>(queries.size());
    queries.forEach(q -> texts.add(q == null ? "" : q));
    return storage.searchTexts(namespace, field, texts, k);
  }

  // ---- deletion and lifecycle ----

  @Override
  public Forgotten forget(String namespace) {
    return storage.forget(ns(namespace));
  }

  @Override
  public Forgotten forget(String namespace, String session) {
    ns(namespace);
    return storage.forget(namespace, nonBlank(session, "session"));
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      storage.close();
    }
  }

  @Override
  public String toString() {
    return "CheckedRecordStore[" + storage + "]";
  }
}
