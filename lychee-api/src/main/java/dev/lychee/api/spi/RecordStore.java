package dev.lychee.api.spi;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Append-only storage of raw turns, segments, memory records and evidence nodes, scoped by
 * namespace.
 *
 * <p>Contract for every implementation:
 * <ul>
 *   <li><b>Isolation.</b> No read, search, listing or deletion ever returns or touches data of
 *       another namespace.</li>
 *   <li><b>Durability.</b> A write method that returned has committed (durable stores: to disk,
 *       in one transaction per call).</li>
 *   <li><b>Idempotency.</b> Appending a turn whose (session, index) is stored is a no-op;
 *       putting a record whose id is stored merges provenance; putting a node whose id is stored
 *       merges it ({@link EvidenceNode#mergedWith}).</li>
 *   <li><b>Ordering.</b> Turns come back by index; records and nodes in first-insertion order;
 *       segments by session then first turn.</li>
 *   <li><b>Errors.</b> Blank namespace or session: {@link IllegalArgumentException}. An unknown
 *       namespace is not an error: it is empty. Lexical queries never throw on user syntax.</li>
 *   <li><b>Threads.</b> Safe for concurrent readers and writers.</li>
 * </ul>
 */
public interface RecordStore extends AutoCloseable {

  // ---- raw turns ----

  /**
   * Stores turns of one session in one transaction.
   *
   * @return the turns that were new (already stored refs are skipped), in input order
   */
  List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns);

  /**
   * Stores turns of one session in one transaction, choosing the indices of turns that came without
   * one inside that transaction: {@code admit} is called once, under the store's write lock, with
   * the session's first free index as the store sees it then, and returns the turns to store. Two
   * writers appending to one session (threads, or processes sharing a database) therefore never
   * take the same index, so no acknowledged turn is silently dropped as "already stored".
   *
   * <p>The default holds this instance's monitor around {@link #nextTurnIndex} and
   * {@link #appendTurns(String, String, List)}: enough for stores that one process opens at a time
   * (in memory, Lucene). Stores that several processes share (SQLite, PostgreSQL) override it.
   *
   * @return the turns that were new, as {@link #appendTurns(String, String, List)} returns them
   */
  default List<RawTurn> appendTurns(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    synchronized (this) {
      return appendTurns(namespace, session, admit.apply(nextTurnIndex(namespace, session)));
    }
  }

  /** One past the highest stored turn index of the session (0 for an empty session). */
  int nextTurnIndex(String namespace, String session);

  Optional<RawTurn> turn(String namespace, TurnRef ref);

  /** The stored turns of a session with index in {@code [from, to]}, clamped to what exists. */
  List<RawTurn> turns(String namespace, String session, int from, int to);

  /**
   * The stored turns for several refs at once, in the order of {@code refs}; unknown refs are
   * skipped and a repeated ref comes back once. Recall channels use it to fetch their candidates in
   * one round trip; the default asks {@link #turn} for each ref, and durable stores override it.
   */
  default List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    return refs.stream().distinct().map(r -> turn(namespace, r)).flatMap(Optional::stream).toList();
  }

  /** All stored turns of a session, by index. */
  List<RawTurn> turns(String namespace, String session);

  /** The sessions of a namespace, in the order their first turn was stored. */
  List<String> sessions(String namespace);

  /** All namespaces that hold at least one turn. */
  List<String> namespaces();

  /** How many turns the namespace holds. */
  long countTurns(String namespace);

  // ---- segments ----

  /** Stores a closed segment with a state; an existing segment with the same id is replaced. */
  void putSegment(Segment segment, SegmentState state);

  /**
   * Changes a stored segment's state and error text (nullable).
   *
   * @throws IllegalArgumentException if no such segment is stored
   */
  void setSegmentState(String namespace, String segmentId, SegmentState state, String error);

  /** All stored segments of a namespace, by session then first turn. */
  List<StoredSegment> segments(String namespace);

  /** The highest turn index of the session that lies in a stored segment, or -1. */
  int segmentedThrough(String namespace, String session);

  /**
   * Commits one segment's encoding atomically: records and nodes are put (with merge semantics)
   * and the segment's state becomes ENCODED, all in one transaction. After a crash either all of
   * it is visible or none.
   */
  void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes);

  // ---- records ----

  /** Puts records; a record whose id is stored is merged ({@link MemoryRecord#mergedWith}). */
  void putRecords(String namespace, List<MemoryRecord> records);

  Optional<MemoryRecord> record(String namespace, String id);

  /** The records with these ids, in the order of {@code ids}; unknown ids are skipped. */
  List<MemoryRecord> records(String namespace, Collection<String> ids);

  /** All records of a namespace, in first-insertion order. */
  List<MemoryRecord> records(String namespace);

  List<MemoryRecord> recordsByType(String namespace, MemoryType type);

  /** Records whose temporal span overlaps the range. */
  List<MemoryRecord> recordsInRange(String namespace, DateRange range);

  // ---- evidence nodes ----

  /** Puts nodes; a node whose id is stored is merged. */
  void putNodes(String namespace, List<EvidenceNode> nodes);

  Optional<EvidenceNode> node(String namespace, String id);

  /** The nodes with these ids, in the order of {@code ids}; unknown ids are skipped. */
  List<EvidenceNode> nodes(String namespace, Collection<String> ids);

  /** All nodes of one kind, ordered by key. */
  List<EvidenceNode> nodes(String namespace, NodeKind kind);

  // ---- lexical search ----

  /**
   * BM25-style search over turns or records. Any user text is accepted: quotes, operators,
   * wildcards, parentheses, colons, non-Latin scripts and empty strings never throw; a query with
   * no searchable term returns an empty list.
   *
   * @return at most {@code k} hits, best first
   */
  List<ScoredId> searchText(String namespace, TextField field, String query, int k);

  // ---- deletion ----

  /** Removes everything of a namespace. */
  Forgotten forget(String namespace);

  /**
   * Removes a session: its turns and segments; records lose their evidence in that session and
   * are removed when none is left; nodes lose removed records and are removed when none is left.
   */
  Forgotten forget(String namespace, String session);

  /** Releases resources; further calls fail with {@link IllegalStateException}. */
  @Override
  void close();
}
