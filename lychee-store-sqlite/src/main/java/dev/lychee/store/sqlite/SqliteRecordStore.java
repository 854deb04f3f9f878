package dev.lychee.store.sqlite;

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
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.store.MergeOnPut;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * A durable {@link RecordStore} in one SQLite file: a thin store over one class per table
 * ({@link TurnTable}, {@link SegmentTable}, {@link RecordTable}, {@link NodeTable}) and the FTS5
 * search ({@link FtsSearch}). It owns the transactions that span tables: a segment's encoding
 * with its state, and both kinds of forgetting. Every write method is one transaction.
 *
 * <p>It only stores: arguments are checked by {@link CheckedRecordStore}, which
 * {@link SqliteStoreModule} and {@link #open} put in front of it.
 */
public final class SqliteRecordStore implements RecordStore {
  private final SqliteDatabase db;
  private final TurnTable turns;
  private final SegmentTable segments;
  private final RecordTable records;
  private final NodeTable nodes;
  private final FtsSearch search;
  private volatile boolean closed;

  /** A store over a shared database (the database stays open until its last user closes). */
  @Inject
  public SqliteRecordStore(SqliteDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
    CachedReads reads = new CachedReads(db);
    // one copy of the searched namespaces' turns and records: the lexical searches keep them
    // current, the reads by id and range use them
    TurnBm25 turnCopies = new TurnBm25(db);
    RecordBm25 recordCopies = new RecordBm25(db);
    this.turns = new TurnTable(reads, turnCopies);
    this.segments = new SegmentTable(db);
    this.records = new RecordTable(reads, recordCopies);
    // the nodes of a kind (the temporal channel's list) kept apart from the read cache, under the
    // same bound of decoded items (NodesByKind, round twenty)
    this.nodes = new NodeTable(reads, new NodeLinks(db), new NodesByKind(db, db.config().readCacheMaxEntries()));
    this.search = new FtsSearch(reads, turnCopies, recordCopies);
    db.acquire();
  }

  /** Opens a checked store over its own database file with default settings. */
  public static RecordStore open(Path file) {
    return open(file, SqliteStoreConfig.defaults());
  }

  /** Opens a checked store over its own database file. */
  public static RecordStore open(Path file, SqliteStoreConfig config) {
    return CheckedRecordStore.of(new SqliteRecordStore(SqliteDatabase.open(file, config)));
  }

  /** The database this store writes to (shared with a {@link SqliteVectorIndex} over it). */
  SqliteDatabase database() {
    return db;
  }

  // ---- turns ----

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns) {
    return this.turns.append(namespace, session, turns);
  }

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    return turns.append(namespace, session, admit);
  }

  @Override
  public int nextTurnIndex(String namespace, String session) {
    return turns.nextIndex(namespace, session);
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    return turns.turn(namespace, ref);
  }

  @Override
  public List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    return turns.turns(namespace, refs);
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    return turns.window(namespace, session, from, to);
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    return turns.window(namespace, session, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  @Override
  public List<String> sessions(String namespace) {
    return turns.sessions(namespace);
  }

  @Override
  public List<String> namespaces() {
    return turns.namespaces();
  }

  @Override
  public long countTurns(String namespace) {
    return turns.count(namespace);
  }

  // ---- segments ----

  @Override
  public boolean putSegment(Segment segment, SegmentState state) {
    return segments.put(segment, state);
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    segments.setState(namespace, segmentId, state, error);
  }

  @Override
  public List<StoredSegment> segments(String namespace) {
    return segments.all(namespace);
  }

  @Override
  public List<StoredSegment> pendingSegments(String namespace) {
    return segments.pending(namespace);
  }

  @Override
  public List<String> pendingNamespaces() {
    return segments.pendingNamespaces();
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    return segments.segmentedThrough(namespace, session);
  }

  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    commit(prepare(namespace, segmentId, records, nodes));
  }

  /**
   * A segment's encoding with its merges planned: the stored rows of its records and nodes read and
   * merged, together with the namespace's change counts of the snapshot they were read in.
   */
  record PreparedEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes,
      long[] recordCounts, long[] nodeCounts, List<MergeOnPut.Placed<MemoryRecord>> recordPlan,
      List<MergeOnPut.Placed<EvidenceNode>> nodePlan) {}

  /**
   * Plans the merges of an encoding outside the write lock, in one read snapshot: reading a
   * segment's stored records and nodes and merging them was about a third of what the
   * background encoder's commit did under the database's one write lock, which every {@code
   * append}'s turn and turn vector wait for (round sixteen, docs/defaults.md §3.3).
   */
  PreparedEncoding prepare(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    return db.readConsistent(h -> new PreparedEncoding(namespace, segmentId, records, nodes,
        ChangeCounts.RECORDS.read(h, namespace), ChangeCounts.NODES.read(h, namespace),
        RecordTable.plan(h, namespace, records), NodeTable.plan(h, namespace, nodes)));
  }

  /**
   * Commits a prepared encoding in one transaction: its plans when no record or node of the
   * namespace was written or deleted since they were read (the change counts did not move), else
   * planned again inside the transaction, as before.
   */
  void commit(PreparedEncoding e) {
    // synced before returning, but outside the write lock that an append's turn waits for (write);
    // background work: an append whose turn vector is due takes the lock first (TurnVectorsDue)
    db.writeInBackground(h -> {
      // state first: an unknown segment aborts before anything is written
      SegmentTable.setState(h, e.namespace(), e.segmentId(), SegmentState.ENCODED, null);
      boolean current = Arrays.equals(e.recordCounts(), ChangeCounts.RECORDS.read(h, e.namespace()))
          && Arrays.equals(e.nodeCounts(), ChangeCounts.NODES.read(h, e.namespace()));
      RecordTable.write(h, e.namespace(), current ? e.recordPlan() : RecordTable.plan(h, e.namespace(), e.records()));
      NodeTable.write(h, e.namespace(), current ? e.nodePlan() : NodeTable.plan(h, e.namespace(), e.nodes()));
      return null;
    });
  }

  // ---- records, nodes, search ----

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    return records.byIds(namespace, ids);
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    return records.all(namespace);
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    return nodes.byIds(namespace, ids);
  }

  @Override
  public Map<String, List<String>> nodeRecordIds(String namespace, Collection<String> ids) {
    return nodes.recordIds(namespace, ids);
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    return nodes.ofKind(namespace, kind);
  }

  /**
   * The namespace's file version read once per point ({@link VersionPoint}): the reads of a recall
   * then ask SQLite whether their copies are current once, not once per read.
   */
  @Override
  public ReadPoint readPoint(String namespace) {
    return db.readPoint(namespace);
  }

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    return search.search(namespace, field, query, k);
  }

  // ---- deletion ----

  @Override
  public Forgotten forget(String namespace) {
    return db.write(h -> {
      List<String> turnIds = TurnTable.deleteNamespace(h, namespace);
      SegmentTable.deleteNamespace(h, namespace);
      return new Forgotten(turnIds, RecordTable.deleteNamespace(h, namespace), NodeTable.deleteNamespace(h, namespace));
    });
  }

  @Override
  public Forgotten forget(String namespace, String session) {
    return db.write(h -> {
      List<String> turnIds = TurnTable.deleteSession(h, namespace, session);
      SegmentTable.deleteSession(h, namespace, session);
      List<String> removedRecords = RecordTable.pruneSession(h, namespace, session);
      List<String> removedNodes = NodeTable.pruneSession(h, namespace, session, Set.copyOf(removedRecords));
      return new Forgotten(turnIds, removedRecords, removedNodes);
    });
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      db.release();
    }
  }
}
