package dev.lychee.store.postgres;

import dev.lychee.api.Checks;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.SessionPruning;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link RecordStore} on PostgreSQL that many application instances share.
 *
 * <p>This class owns the transactions; one class per table does the SQL
 * ({@link TurnTable}, {@link SegmentTable}, {@link RecordTable}, {@link NodeTable}). Every write is
 * one transaction, retried whole on transient failures (see {@link PostgresDatabase}); every write
 * is idempotent, so a retry after a lost acknowledgement changes nothing. A read sees every write
 * committed, by any instance, before it started.
 *
 * <p>Argument checks are {@link CheckedRecordStore}'s, which {@link #open} and
 * {@link PostgresStoreModule} put in front of this class; it adds only what PostgreSQL needs:
 * namespace and session names must not hold NUL ({@link #name}).
 */
public final class PostgresRecordStore implements RecordStore {
  private final PostgresDatabase db;
  private final TurnTable turns = new TurnTable();
  private final SegmentTable segments = new SegmentTable();
  private final RecordTable records = new RecordTable();
  private final NodeTable nodes = new NodeTable();
  private final TurnTextIndex turnText;
  /** Each session's next index after this instance's last append to it, for the one-statement append. */
  private final NextIndexGuesses guesses = new NextIndexGuesses();
  /** Records and nodes read by id from memory after a head check; null when turned off (§3.3). */
  private final LocalRows local;
  private volatile boolean closed;

  /** A store over a shared database (the pool stays open until its last user closes). */
  @Inject
  public PostgresRecordStore(PostgresDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
    this.turnText = new TurnTextIndex(db, db.config().localRows(), db.config().localRowsMaxNamespaces());
    this.local = db.config().localRows() ? new LocalRows(db, records, nodes, db.config().localRowsMaxNamespaces()) : null;
    db.acquire();
  }

  /** Opens a checked store with its own pool on {@code jdbcUrl}. */
  public static RecordStore open(String jdbcUrl, PostgresStoreConfig config) {
    return CheckedRecordStore.of(new PostgresRecordStore(PostgresDatabase.open(jdbcUrl, config)));
  }

  /** The database this store writes to (shared with a {@link PostgresVectorIndex} over it). */
  public PostgresDatabase database() {
    return db;
  }

  private static String ns(String namespace) {
    return name(namespace, "namespace");
  }

  /** A namespace or session name as PostgreSQL text can hold it: free of NUL. */
  static String name(String value, String what) {
    if (value.indexOf('\u0000') >= 0) {
      throw new IllegalArgumentException(what + " must not contain the NUL character (PostgreSQL text cannot hold it)");
    }
    return value;
  }

  // ---- raw turns ----

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> batch) {
    ns(namespace);
    name(session, "session");
    if (batch.isEmpty()) {
      return List.of();
    }
    return db.write(h -> turns.append(h, namespace, session, batch));
  }

  /**
   * Stores the turns {@code admit} builds for the session's next free index, read under a lock on
   * the session's row inside the write transaction: appends to one session from any number of
   * instances run one after another, so every turn gets its own index, with no gap. {@code admit}
   * may run more than once when a transient failure makes the transaction run again; a run after a
   * lost acknowledgement of a committed one returns the turns that run stored.
   *
   * <p>When this instance appended to the session before, {@code admit} is first called with the
   * next index it saw then, and those turns are stored in one statement in autocommit that checks
   * under the session's lock that the index is still that one ({@link TurnTable#appendInOrder}: one
   * round trip instead of four, round eighteen, docs/defaults.md §3.3). When it is not (another
   * instance appended or forgot meanwhile), or {@code admit} failed for the guessed index, the
   * statement wrote nothing and the transaction runs as before, calling {@code admit} with the
   * index it reads under the lock.
   */
  @Override
  public List<RawTurn> appendTurns(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    ns(namespace);
    name(session, "session");
    UUID token = UUID.randomUUID();
    Integer guess = guesses.get(namespace, session);
    List<RawTurn> guessed = guess == null ? null : admittedAt(admit, guess);
    boolean sent = false;
    if (guessed != null && TurnTable.inOrder(guessed, guess)) {
      sent = true;
      if (storedInOrder(namespace, session, guess, guessed, token)) {
        guesses.put(namespace, session, guessed.stream().mapToInt(RawTurn::index).max().getAsInt() + 1);
        return guessed;
      }
    }
    // only a run after a statement (a transient failure, perhaps after the commit, or the
    // one-statement append that a lost acknowledgement hid) can find a stored run
    AtomicBoolean ran = new AtomicBoolean(sent);
    TurnTable.Admitted done = db.write(h -> turns.appendAdmitted(h, namespace, session, admit, token, ran.getAndSet(true)));
    guesses.put(namespace, session, done.next());
    return done.added();
  }

  /**
   * The turns {@code admit} gives for a guessed next index, or null when it fails for it: the
   * transaction then calls it with the real index, and fails the same way if the failure does not
   * depend on the index.
   */
  private static List<RawTurn> admittedAt(IntFunction<List<RawTurn>> admit, int guess) {
    try {
      return admit.apply(guess);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** {@link TurnTable#appendInOrder} in autocommit; false when it wrote nothing. */
  private boolean storedInOrder(String namespace, String session, int expected, List<RawTurn> batch, UUID token) {
    try {
      return db.writeStatement(h -> turns.appendInOrder(h, namespace, session, expected, batch, token));
    } catch (RuntimeException e) {
      if (Failures.isUniqueViolation(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Stores turns of one session, giving each turn without an index ({@code -1}) the next free
   * index of the session in the same transaction, so instances appending to one session at once
   * never take the same index and leave no gap. Turns with an index are stored under it (skipped
   * when stored). Exactly once: a retry of this call after a lost connection returns what the first
   * attempt stored.
   *
   * @return the stored turns, by index
   */
  public List<RawTurn> appendAssigning(String namespace, String session, List<Turn> batch) {
    // not a RecordStore method, so no CheckedRecordStore in front: the name rules are checked here
    Checks.name(namespace, "namespace");
    Checks.name(session, "session");
    Objects.requireNonNull(batch, "turns");
    Set<Integer> seen = new HashSet<>();
    for (Turn t : batch) {
      Objects.requireNonNull(t, "turn");
      if (t.index() >= 0 && !seen.add(t.index())) {
        throw new IllegalArgumentException("turn index " + t.index() + " appears twice in one append");
      }
    }
    if (batch.isEmpty()) {
      return List.of();
    }
    UUID token = UUID.randomUUID();
    return db.write(h -> turns.appendAssigning(h, namespace, session, batch, token));
  }

  @Override
  public int nextTurnIndex(String namespace, String session) {
    ns(namespace);
    name(session, "session");
    return db.read(h -> turns.nextIndex(h, namespace, session));
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    ns(namespace);
    return db.read(h -> turns.turn(h, namespace, ref));
  }

  @Override
  public List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    ns(namespace);
    List<TurnRef> wanted = List.copyOf(new LinkedHashSet<>(refs));
    if (wanted.isEmpty()) {
      return List.of();
    }
    if (turnText.keepsRows()) {
      return turnText.turns(namespace, wanted);
    }
    Map<TurnRef, RawTurn> found = new HashMap<>();
    db.read(h -> turns.turns(h, namespace, wanted)).forEach(t -> found.put(t.ref(), t));
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    ns(namespace);
    name(session, "session");
    if (from > to) {
      return List.of();
    }
    if (turnText.keepsRows()) {
      return turnText.window(namespace, session, from, to);
    }
    return db.read(h -> turns.window(h, namespace, session, from, to));
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    return turns(namespace, session, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  @Override
  public List<String> sessions(String namespace) {
    ns(namespace);
    return db.read(h -> turns.sessions(h, namespace));
  }

  @Override
  public List<String> namespaces() {
    return db.read(turns::namespaces);
  }

  @Override
  public long countTurns(String namespace) {
    ns(namespace);
    return db.read(h -> turns.count(h, namespace));
  }

  // ---- segments ----

  @Override
  public boolean putSegment(Segment segment, SegmentState state) {
    ns(segment.namespace());
    // one round trip when no stored segment's range meets the new one's, the transaction otherwise
    return db.writeStatement(h -> segments.putAlone(h, segment, state))
        || db.write(h -> segments.put(h, segment, state));
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    ns(namespace);
    db.write(h -> {
      segments.setState(h, namespace, segmentId, state, error);
      return null;
    });
  }

  @Override
  public List<StoredSegment> segments(String namespace) {
    ns(namespace);
    return db.read(h -> segments.list(h, namespace));
  }

  @Override
  public List<StoredSegment> pendingSegments(String namespace) {
    ns(namespace);
    return db.read(h -> segments.pending(h, namespace));
  }

  @Override
  public List<String> pendingNamespaces() {
    return db.read(segments::pendingNamespaces);
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    ns(namespace);
    name(session, "session");
    return db.read(h -> segments.segmentedThrough(h, namespace, session));
  }

  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> recs, List<EvidenceNode> ns) {
    ns(namespace);
    db.write(h -> {
      // state first: an unknown segment aborts before anything is written
      segments.setState(h, namespace, segmentId, SegmentState.ENCODED, null);
      MergingRows.putInTurn(h, List.of(records.rows.put(recs), nodes.rows.put(ns)));
      return null;
    });
  }

  // ---- records ----

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    ns(namespace);
    if (local != null) {
      List<String> wanted = List.copyOf(new LinkedHashSet<>(ids));
      return wanted.isEmpty() ? List.of() : local.read(namespace, copy -> present(wanted, copy::record));
    }
    return inRequestOrder(ids, list -> db.read(h -> records.rows.byIds(h, namespace, list)), MemoryRecord::id);
  }

  /** The rows of {@code ids} that {@code lookup} finds, in the order of {@code ids}. */
  private static <T> List<T> present(List<String> ids, Function<String, T> lookup) {
    List<T> out = new ArrayList<>(ids.size());
    for (String id : ids) {
      T row = lookup.apply(id);
      if (row != null) {
        out.add(row);
      }
    }
    return out;
  }

  private static <T> List<T> inRequestOrder(Collection<String> ids, Function<List<String>, List<T>> fetch,
      Function<T, String> idOf) {
    List<String> wanted = List.copyOf(new LinkedHashSet<>(ids));
    if (wanted.isEmpty()) {
      return List.of();
    }
    Map<String, T> found = new HashMap<>();
    fetch.apply(wanted).forEach(t -> found.put(idOf.apply(t), t));
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    ns(namespace);
    return db.read(h -> records.rows.all(h, namespace));
  }

  // ---- evidence nodes ----

  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    ns(namespace);
    if (local != null) {
      List<String> wanted = List.copyOf(new LinkedHashSet<>(ids));
      return wanted.isEmpty() ? List.of() : local.read(namespace, copy -> present(wanted, copy::node));
    }
    return inRequestOrder(ids, list -> db.read(h -> nodes.rows.byIds(h, namespace, list)), EvidenceNode::id);
  }

  /** One node's id with its record ids (NodeLog#nodeRecordIds). */
  private record NodeLinks(String id, List<String> recordIds) {}

  /** Only the record ids' columns are read and decoded, in one statement. */
  @Override
  public Map<String, List<String>> nodeRecordIds(String namespace, Collection<String> ids) {
    ns(namespace);
    if (local != null) {
      List<String> wanted = List.copyOf(new LinkedHashSet<>(ids));
      return wanted.isEmpty() ? new LinkedHashMap<>() : local.read(namespace, copy -> links(wanted, copy));
    }
    List<NodeLinks> found = inRequestOrder(ids, list -> db.read(h -> h.createQuery(
            "SELECT id, record_ids_base, record_ids_tail FROM nodes WHERE namespace = :ns AND id = ANY(:ids)")
        .bind("ns", namespace).bindArray("ids", String.class, list)
        .map((rs, ctx) -> new NodeLinks(rs.getString("id"), NodeTable.recordIds(rs)))
        .list()), NodeLinks::id);
    Map<String, List<String>> out = new LinkedHashMap<>();
    found.forEach(l -> out.put(l.id(), l.recordIds()));
    return out;
  }

  /** The record ids of the nodes of {@code ids} the copy holds, in the order of {@code ids}. */
  private static Map<String, List<String>> links(List<String> ids, LocalRows.Copy copy) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String id : ids) {
      EvidenceNode n = copy.node(id);
      if (n != null) {
        out.put(id, n.recordIds());
      }
    }
    return out;
  }

  /**
   * With local rows on (docs/defaults.md §3.3), the links and the records come from one copy at one
   * head: one round trip, and the records match the links they were read for. Otherwise the default
   * (two statements), which on a local server was measured faster than one statement joining them
   * (docs/measurements.md §6, round fourteen).
   */
  @Override
  public LinkedRecords linkedRecords(String namespace, Collection<String> nodeIds, int perNode) {
    if (local == null) {
      return RecordStore.super.linkedRecords(namespace, nodeIds, perNode);
    }
    ns(namespace);
    List<String> wanted = List.copyOf(new LinkedHashSet<>(nodeIds));
    if (wanted.isEmpty()) {
      return LinkedRecords.NONE;
    }
    return local.read(namespace, copy -> {
      Map<String, List<String>> links = new LinkedHashMap<>();
      Set<String> recordIds = new LinkedHashSet<>();
      for (Map.Entry<String, List<String>> node : links(wanted, copy).entrySet()) {
        List<String> all = node.getValue();
        List<String> first = all.subList(0, Math.min(perNode, all.size()));
        links.put(node.getKey(), first);
        recordIds.addAll(first);
      }
      return new LinkedRecords(links, recordIds.isEmpty() ? List.of() : present(List.copyOf(recordIds), copy::record));
    });
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    ns(namespace);
    if (local != null) {
      return local.read(namespace, copy -> copy.nodes(kind));
    }
    return db.read(h -> nodes.byKind(h, namespace, kind));
  }

  // ---- lexical search ----

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    ns(namespace);
    TextQuery q = TextQuery.of(query);
    if (q == null) {
      return List.of();
    }
    if (field == TextField.TURNS && local(List.of(q))) {
      return turnText.searchAll(namespace, List.of(q), k).get(0);
    }
    if (field == TextField.RECORDS && local != null && local(List.of(q))) {
      return local.read(namespace, copy -> copy.search(q, k));
    }
    return db.read(h -> field == TextField.TURNS ? turns.search(h, namespace, q, k) : records.search(h, namespace, q, k));
  }

  /**
   * Whether the search of these queries is answered from this instance's postings (the turns'
   * always, the records' with local rows on, since round nineteen): when every term is one whose
   * server lexeme is the term itself ({@link TextPostings#plain}); then the answer is the
   * database's, exactly, without the server ranking every matching row (docs/defaults.md §3.3).
   * Other queries (accented letters, digit-e-digit) go to the database.
   */
  private static boolean local(List<TextQuery> queries) {
    for (TextQuery q : queries) {
      if (q != null && !q.terms().stream().allMatch(TextPostings::plain)) {
        return false;
      }
    }
    return true;
  }

  /** One statement for all {@code queries} (each as {@link #searchText} answers it alone). */
  @Override
  public List<List<ScoredId>> searchTexts(String namespace, TextField field, List<String> queries, int k) {
    ns(namespace);
    List<TextQuery> parsed = new ArrayList<>(queries.size());
    queries.forEach(q -> parsed.add(TextQuery.of(q)));
    if (parsed.stream().allMatch(Objects::isNull)) {
      List<List<ScoredId>> none = new ArrayList<>();
      queries.forEach(q -> none.add(List.of()));
      return none;
    }
    if (field == TextField.TURNS && local(parsed)) {
      return turnText.searchAll(namespace, parsed, k);
    }
    if (field == TextField.RECORDS && local != null && local(parsed)) {
      return local.read(namespace, copy -> {
        List<List<ScoredId>> out = new ArrayList<>(parsed.size());
        parsed.forEach(q -> out.add(q == null ? List.of() : copy.search(q, k)));
        return out;
      });
    }
    return db.read(h -> field == TextField.TURNS ? turns.searchAll(h, namespace, parsed, k)
        : records.searchAll(h, namespace, parsed, k));
  }

  /**
   * A point whose first read reads every head of the namespace, of this store's rows and turns and
   * of the vector index over the same database, in one statement; the reads inside it use those
   * heads instead of reading their own ({@link HeadPoint}; round eighteen, docs/defaults.md §3.3).
   */
  @Override
  public ReadPoint readPoint(String namespace) {
    return new HeadPoint(db, ns(namespace));
  }

  // ---- deletion ----

  @Override
  public Forgotten forget(String namespace) {
    ns(namespace);
    Forgotten forgotten = db.write(h -> {
      List<String> recordIds = records.rows.ids(h, namespace);
      List<String> nodeIds = nodes.rows.ids(h, namespace);
      List<String> turnIds = turns.delete(h, namespace, null);
      segments.delete(h, namespace, null);
      records.rows.deleteAll(h, namespace);
      nodes.rows.deleteAll(h, namespace);
      return new Forgotten(turnIds, recordIds, nodeIds);
    });
    turnText.forget(namespace);
    guesses.forget(namespace, null);
    if (local != null) {
      local.forget(namespace);
    }
    return forgotten;
  }

  @Override
  public Forgotten forget(String namespace, String session) {
    ns(namespace);
    name(session, "session");
    guesses.forget(namespace, session);
    return db.write(h -> {
      List<String> turnIds = turns.delete(h, namespace, session);
      segments.delete(h, namespace, session);
      List<String> removedRecords = new ArrayList<>();
      for (MemoryRecord r : records.rows.allForUpdate(h, namespace)) {
        MemoryRecord kept = SessionPruning.withoutSession(r, session);
        if (kept == null) {
          removedRecords.add(r.id());
        } else if (kept != r) {
          records.rows.rewrite(h, kept);
        }
      }
      records.rows.delete(h, namespace, removedRecords);
      Set<String> gone = new HashSet<>(removedRecords);
      List<String> removedNodes = new ArrayList<>();
      for (EvidenceNode n : nodes.rows.allForUpdate(h, namespace)) {
        EvidenceNode kept = SessionPruning.withoutRecords(n, gone, session);
        if (kept == null) {
          removedNodes.add(n.id());
        } else if (kept != n) {
          nodes.rows.rewrite(h, kept);
        }
      }
      nodes.rows.delete(h, namespace, removedNodes);
      return new Forgotten(turnIds, removedRecords, removedNodes);
    });
  }

  /** Local row copies' head reads, full loads and catch-ups so far (for tests and monitoring; zeros when off). */
  long[] localRowReads() {
    return local == null ? new long[3] : new long[] {local.headReads(), local.fullLoads(), local.replays()};
  }

  /** Namespaces whose turn copy (postings, and turns with local rows) this instance holds, and how many it dropped. */
  long[] turnCopiesHeld() {
    return turnText.held();
  }

  /** Namespaces whose local rows this instance holds, and how many it has dropped (for tests and monitoring). */
  long[] localRowsHeld() {
    return local == null ? new long[2] : new long[] {local.namespacesHeld(), local.evictions()};
  }

  /** Full reads of a namespace's turn postings so far (for tests and monitoring). */
  long turnPostingLoads() {
    return turnText.fullLoads();
  }

  /** Catch-ups of a namespace's turn postings with the turns written since (for tests and monitoring). */
  long turnPostingReplays() {
    return turnText.replays();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      db.release();
    }
  }
}
