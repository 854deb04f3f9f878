package dev.lychee.store.sqlite;

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
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.SessionPruning;
import dev.lychee.core.store.VersionedCache;
import jakarta.inject.Inject;
import java.nio.file.Path;
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
import java.util.function.IntFunction;
import java.util.Set;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * A durable {@link RecordStore} in one SQLite file.
 *
 * <p>Every write method is one transaction: turns with their FTS rows, records with theirs, a
 * segment's encoding with its state. Lexical search runs on FTS5 tables kept in step inside those
 * transactions; queries are built by {@link LexicalText}, so user syntax never reaches FTS5. The
 * FTS statistics (document count, average length) are shared by all namespaces; the hits are not.
 */
public final class SqliteRecordStore implements RecordStore {
  /** Ids per {@code IN (...)} list, well under SQLite's variable limit. */
  private static final int IN_CHUNK = 400;

  private final SqliteDatabase db;
  private final VersionedCache cache;
  private volatile boolean closed;


  /** A store over a shared database (the database stays open until its last user closes). */
  @Inject
  public SqliteRecordStore(SqliteDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
    this.cache = new VersionedCache(db.config().readCacheMaxEntries());
    db.acquire();
  }

  /** Opens a store over its own database file with default settings. */
  public static SqliteRecordStore open(Path file) {
    return open(file, SqliteStoreConfig.defaults());
  }

  /** Opens a store over its own database file. */
  public static SqliteRecordStore open(Path file, SqliteStoreConfig config) {
    SqliteDatabase db = SqliteDatabase.open(file, config);
    return new SqliteRecordStore(db);
  }

  /** The database this store writes to (shared with a {@link SqliteVectorIndex} over it). */
  SqliteDatabase database() {
    return db;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("record store is closed");
    }
  }

  private String ns(String namespace) {
    checkOpen();
    return nonBlank(namespace, "namespace");
  }

  private static String nonBlank(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }

  private static void sameNamespace(String expected, String actual, String what) {
    if (!expected.equals(actual)) {
      throw new IllegalArgumentException(what + " belongs to namespace '" + actual + "', not '" + expected + "'");
    }
  }

  // ---- raw turns ----

  @Override
  public List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns) {
    checkTurns(namespace, session, turns);
    if (turns.isEmpty()) {
      return List.of();
    }
    return db.write(h -> insertTurns(h, namespace, session, turns));
  }

  /**
   * The next index is read inside the write transaction, which SQLite serialises across every
   * process sharing the file ({@code BEGIN IMMEDIATE}), so concurrent appenders never choose the
   * same index.
   */
  @Override
  public List<RawTurn> appendTurns(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    ns(namespace);
    nonBlank(session, "session");
    Objects.requireNonNull(admit, "admit");
    return db.write(h -> {
      int next = h.createQuery("SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE namespace = ? AND session = ?")
          .bind(0, namespace).bind(1, session).mapTo(Integer.class).one();
      List<RawTurn> turns = admit.apply(next);
      checkTurns(namespace, session, turns);
      return insertTurns(h, namespace, session, turns);
    });
  }

  private void checkTurns(String namespace, String session, List<RawTurn> turns) {
    ns(namespace);
    nonBlank(session, "session");
    Objects.requireNonNull(turns, "turns");
    for (RawTurn t : turns) {
      Objects.requireNonNull(t, "turn");
      sameNamespace(namespace, t.namespace(), "turn " + t.id());
      if (!t.session().equals(session)) {
        throw new IllegalArgumentException(
            "turn " + t.id() + " belongs to session '" + t.session() + "', not '" + session + "'");
      }
    }
  }

  private static List<RawTurn> insertTurns(Handle h, String namespace, String session, List<RawTurn> turns) {
    List<RawTurn> added = new ArrayList<>();
    for (RawTurn t : turns) {
      int n = h.createUpdate("INSERT OR IGNORE INTO turns(" + Rows.TURN_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")
          .bind(0, namespace).bind(1, session).bind(2, t.index()).bind(3, t.role().wireName())
          .bind(4, t.speaker()).bind(5, t.text()).bind(6, ColumnCodec.iso(t.time())).execute();
      if (n == 1) {
        long rowid = lastRowid(h);
        h.execute("INSERT INTO turns_fts(rowid, body) VALUES (?, ?)", rowid, LexicalText.document(t.content()));
        added.add(t);
      }
    }
    return added;
  }

  private static long lastRowid(Handle h) {
    return h.createQuery("SELECT last_insert_rowid()").mapTo(Long.class).one();
  }

  @Override
  public int nextTurnIndex(String namespace, String session) {
    ns(namespace);
    nonBlank(session, "session");
    return db.read(h -> h.createQuery("SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE namespace = ? AND session = ?")
        .bind(0, namespace).bind(1, session).mapTo(Integer.class).one());
  }

  @Override
  public Optional<RawTurn> turn(String namespace, TurnRef ref) {
    ns(namespace);
    Objects.requireNonNull(ref, "ref");
    return db.read(h -> h.createQuery("SELECT " + Rows.TURN_COLUMNS
            + " FROM turns WHERE namespace = ? AND session = ? AND idx = ?")
        .bind(0, namespace).bind(1, ref.session()).bind(2, ref.index()).map(Rows::turn).findOne());
  }

  @Override
  public List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    ns(namespace);
    Objects.requireNonNull(refs, "refs");
    List<TurnRef> wanted = List.copyOf(new LinkedHashSet<>(refs));
    if (wanted.isEmpty()) {
      return List.of();
    }
    long version = readVersion();
    Map<TurnRef, RawTurn> found = new HashMap<>();
    Map<String, List<Integer>> bySession = new LinkedHashMap<>();
    for (TurnRef r : wanted) {
      RawTurn cached = cache.get(version, new VersionedCache.Key('t', namespace, r));
      if (cached != null) {
        found.put(r, cached);
      } else {
        bySession.computeIfAbsent(r.session(), k -> new ArrayList<>()).add(r.index());
      }
    }
    if (bySession.isEmpty()) {
      return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
    }
    db.read(h -> {
      for (Map.Entry<String, List<Integer>> e : bySession.entrySet()) {
        for (List<Integer> chunk : chunks(e.getValue())) {
          h.createQuery("SELECT " + Rows.TURN_COLUMNS
                  + " FROM turns WHERE namespace = :ns AND session = :session AND idx IN (<idx>)")
              .bind("ns", namespace).bind("session", e.getKey()).bindList("idx", chunk)
              .map(Rows::turn).forEach(t -> {
                found.put(t.ref(), t);
                cache.put(version, new VersionedCache.Key('t', namespace, t.ref()), t);
              });
        }
      }
      return null;
    });
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  @Override
  public List<RawTurn> turns(String namespace, String session, int from, int to) {
    ns(namespace);
    nonBlank(session, "session");
    if (from > to) {
      return List.of();
    }
    // source windows ask for the same short ranges route after route
    long version = readVersion();
    VersionedCache.Key key = new VersionedCache.Key('w', namespace, List.of(session, from, to));
    List<RawTurn> cached = cache.get(version, key);
    if (cached != null) {
      return cached;
    }
    List<RawTurn> out = List.copyOf(db.read(h -> h.createQuery("SELECT " + Rows.TURN_COLUMNS
            + " FROM turns WHERE namespace = ? AND session = ? AND idx BETWEEN ? AND ? ORDER BY idx")
        .bind(0, namespace).bind(1, session).bind(2, from).bind(3, to).map(Rows::turn).list()));
    cache.put(version, key, out);
    return out;
  }

  @Override
  public List<RawTurn> turns(String namespace, String session) {
    return turns(namespace, session, Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  @Override
  public List<String> sessions(String namespace) {
    ns(namespace);
    return db.read(h -> h.createQuery(
            "SELECT session FROM turns WHERE namespace = ? GROUP BY session ORDER BY MIN(rowid)")
        .bind(0, namespace).mapTo(String.class).list());
  }

  @Override
  public List<String> namespaces() {
    checkOpen();
    return db.read(h -> h.createQuery("SELECT DISTINCT namespace FROM turns ORDER BY namespace")
        .mapTo(String.class).list());
  }

  @Override
  public long countTurns(String namespace) {
    ns(namespace);
    return db.read(h -> h.createQuery("SELECT COUNT(*) FROM turns WHERE namespace = ?")
        .bind(0, namespace).mapTo(Long.class).one());
  }

  // ---- segments ----

  @Override
  public void putSegment(Segment segment, SegmentState state) {
    Objects.requireNonNull(segment, "segment");
    Objects.requireNonNull(state, "state");
    ns(segment.namespace());
    db.write(h -> h.createUpdate("INSERT OR REPLACE INTO segments(" + Rows.SEGMENT_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)")
        .bind(0, segment.namespace()).bind(1, segment.id()).bind(2, segment.session())
        .bind(3, segment.firstIndex()).bind(4, segment.lastIndex()).bind(5, state.name())
        .bind(6, segment.exchanges()).bind(7, segment.tokens()).bind(8, segment.reason().name())
        .bind(9, Rows.nullIfNan(segment.score())).bind(10, Rows.nullIfNan(segment.probability()))
        .bind(11, ColumnCodec.segmentTurns(segment.turns())).execute());
  }

  @Override
  public void setSegmentState(String namespace, String segmentId, SegmentState state, String error) {
    ns(namespace);
    nonBlank(segmentId, "segmentId");
    Objects.requireNonNull(state, "state");
    db.write(h -> {
      updateState(h, namespace, segmentId, state, error);
      return null;
    });
  }

  private static void updateState(Handle h, String namespace, String segmentId, SegmentState state, String error) {
    int n = h.createUpdate("UPDATE segments SET state = ?, error = ? WHERE namespace = ? AND id = ?")
        .bind(0, state.name()).bind(1, error).bind(2, namespace).bind(3, segmentId).execute();
    if (n == 0) {
      throw new IllegalArgumentException("no segment '" + segmentId + "' in namespace '" + namespace + "'");
    }
  }

  @Override
  public List<StoredSegment> segments(String namespace) {
    ns(namespace);
    return db.read(h -> h.createQuery("SELECT " + Rows.SEGMENT_COLUMNS
            + " FROM segments WHERE namespace = ? ORDER BY session, first_idx, last_idx")
        .bind(0, namespace).map(Rows::segment).list());
  }

  @Override
  public int segmentedThrough(String namespace, String session) {
    ns(namespace);
    nonBlank(session, "session");
    return db.read(h -> h.createQuery(
            "SELECT COALESCE(MAX(last_idx), -1) FROM segments WHERE namespace = ? AND session = ?")
        .bind(0, namespace).bind(1, session).mapTo(Integer.class).one());
  }

  @Override
  public void commitEncoding(String namespace, String segmentId, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    ns(namespace);
    nonBlank(segmentId, "segmentId");
    checkRecords(namespace, records);
    checkNodes(namespace, nodes);
    db.write(h -> {
      // state first: an unknown segment aborts before anything is written
      updateState(h, namespace, segmentId, SegmentState.ENCODED, null);
      for (MemoryRecord r : records) {
        putRecord(h, r);
      }
      for (EvidenceNode n : nodes) {
        putNode(h, n);
      }
      return null;
    });
  }

  // ---- records ----

  private static void checkRecords(String namespace, List<MemoryRecord> records) {
    Objects.requireNonNull(records, "records");
    for (MemoryRecord r : records) {
      Objects.requireNonNull(r, "record");
      sameNamespace(namespace, r.namespace(), "record " + r.id());
    }
  }

  private static void checkNodes(String namespace, List<EvidenceNode> nodes) {
    Objects.requireNonNull(nodes, "nodes");
    for (EvidenceNode n : nodes) {
      Objects.requireNonNull(n, "node");
      sameNamespace(namespace, n.namespace(), "node " + n.id());
    }
  }

  /** What lexical record search runs over: type, text, entities and tags. */
  private static String recordSearchText(MemoryRecord r) {
    return r.type().wireName() + " " + r.text() + " " + String.join(" ", r.entities()) + " "
        + String.join(" ", r.tags());
  }

  private static void putRecord(Handle h, MemoryRecord r) {
    Optional<Map.Entry<Long, MemoryRecord>> old = h.createQuery("SELECT " + Rows.RECORD_COLUMNS
            + " FROM records WHERE namespace = ? AND id = ?")
        .bind(0, r.namespace()).bind(1, r.id())
        .map((rs, ctx) -> Map.entry(rs.getLong("seq"), Rows.record(rs, ctx))).findOne();
    if (old.isPresent()) {
      long seq = old.get().getKey();
      MemoryRecord merged = old.get().getValue().mergedWith(r);
      writeRecord(h, merged, seq);
      h.execute("DELETE FROM records_fts WHERE rowid = ?", seq);
      h.execute("INSERT INTO records_fts(rowid, body) VALUES (?, ?)", seq, LexicalText.document(recordSearchText(merged)));
    } else {
      writeRecord(h, r, null);
      long seq = lastRowid(h);
      h.execute("INSERT INTO records_fts(rowid, body) VALUES (?, ?)", seq, LexicalText.document(recordSearchText(r)));
    }
  }

  /** Inserts (seq null) or rewrites (seq given) one record row. */
  private static void writeRecord(Handle h, MemoryRecord r, Long seq) {
    DateRange span = r.temporal().span();
    h.createUpdate("INSERT OR REPLACE INTO records(" + Rows.RECORD_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(0, seq).bind(1, r.namespace()).bind(2, r.id()).bind(3, r.type().name()).bind(4, r.text())
        .bind(5, ColumnCodec.strings(r.entities())).bind(6, ColumnCodec.strings(r.tags()))
        .bind(7, r.temporal().tRef()).bind(8, r.temporal().tValidFrom()).bind(9, r.temporal().tValidTo())
        .bind(10, span == null ? null : ColumnCodec.iso(span.start()))
        .bind(11, span == null ? null : ColumnCodec.iso(span.end()))
        .bind(12, span == null ? 0 : 1).bind(13, r.temporal().unparsed() ? 1 : 0)
        .bind(14, ColumnCodec.turnRefs(r.evidence())).bind(15, r.session()).bind(16, r.segmentId())
        .bind(17, r.sourceRole().name()).bind(18, ColumnCodec.iso(r.createdAt())).execute();
  }

  @Override
  public void putRecords(String namespace, List<MemoryRecord> records) {
    ns(namespace);
    checkRecords(namespace, records);
    if (records.isEmpty()) {
      return;
    }
    db.write(h -> {
      for (MemoryRecord r : records) {
        putRecord(h, r);
      }
      return null;
    });
  }

  @Override
  public Optional<MemoryRecord> record(String namespace, String id) {
    ns(namespace);
    Objects.requireNonNull(id, "id");
    return db.read(h -> h.createQuery("SELECT " + Rows.RECORD_COLUMNS + " FROM records WHERE namespace = ? AND id = ?")
        .bind(0, namespace).bind(1, id).map(Rows::record).findOne());
  }

  @Override
  public List<MemoryRecord> records(String namespace, Collection<String> ids) {
    return byIds(namespace, ids, 'r', "SELECT " + Rows.RECORD_COLUMNS + " FROM records", Rows::record,
        MemoryRecord::id);
  }

  /**
   * Rows of one table by id, in the order of {@code ids} (duplicates and unknown ids dropped),
   * fetched in chunks that stay under SQLite's bound-parameter limit.
   */
  private <T> List<T> byIds(String namespace, Collection<String> ids, char table, String select,
      RowMapper<T> mapper, Function<T, String> idOf) {
    ns(namespace);
    Objects.requireNonNull(ids, "ids");
    List<String> wanted = List.copyOf(new LinkedHashSet<>(ids));
    long version = readVersion();
    Map<String, T> found = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String id : wanted) {
      T cached = cache.get(version, new VersionedCache.Key(table, namespace, Objects.requireNonNull(id, "id")));
      if (cached != null) {
        found.put(id, cached);
      } else {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      db.read(h -> {
        for (List<String> chunk : chunks(missing)) {
          h.createQuery(select + " WHERE namespace = :ns AND id IN (<ids>)")
              .bind("ns", namespace).bindList("ids", chunk).map(mapper).forEach(t -> {
                found.put(idOf.apply(t), t);
                cache.put(version, new VersionedCache.Key(table, namespace, idOf.apply(t)), t);
              });
        }
        return null;
      });
    }
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  private static <T> List<List<T>> chunks(List<T> ids) {
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += IN_CHUNK) {
      out.add(ids.subList(i, Math.min(ids.size(), i + IN_CHUNK)));
    }
    return out;
  }

  @Override
  public List<MemoryRecord> records(String namespace) {
    ns(namespace);
    return db.read(h -> h.createQuery("SELECT " + Rows.RECORD_COLUMNS + " FROM records WHERE namespace = ? ORDER BY seq")
        .bind(0, namespace).map(Rows::record).list());
  }

  @Override
  public List<MemoryRecord> recordsByType(String namespace, MemoryType type) {
    ns(namespace);
    Objects.requireNonNull(type, "type");
    return db.read(h -> h.createQuery("SELECT " + Rows.RECORD_COLUMNS
            + " FROM records WHERE namespace = ? AND type = ? ORDER BY seq")
        .bind(0, namespace).bind(1, type.name()).map(Rows::record).list());
  }

  @Override
  public List<MemoryRecord> recordsInRange(String namespace, DateRange range) {
    ns(namespace);
    Objects.requireNonNull(range, "range");
    // the overlap is decided on decoded dates: ISO text sorts wrongly outside years 0000-9999
    // ("-0050" after "-0001", "+12024" before "2024"), as the stored spans are text
    return db.read(h -> h.createQuery("SELECT " + Rows.RECORD_COLUMNS
            + " FROM records WHERE namespace = :ns AND has_span = 1 ORDER BY seq")
        .bind("ns", namespace).map(Rows::record).list()).stream()
        .filter(r -> r.temporal().span() != null && r.temporal().span().overlaps(range)).toList();
  }

  // ---- evidence nodes ----

  private static void putNode(Handle h, EvidenceNode n) {
    Optional<Map.Entry<Long, EvidenceNode>> old = h.createQuery("SELECT " + Rows.NODE_COLUMNS
            + " FROM nodes WHERE namespace = ? AND id = ?")
        .bind(0, n.namespace()).bind(1, n.id())
        .map((rs, ctx) -> Map.entry(rs.getLong("seq"), Rows.node(rs, ctx))).findOne();
    if (old.isPresent()) {
      writeNode(h, old.get().getValue().mergedWith(n), old.get().getKey());
    } else {
      writeNode(h, n, null);
    }
  }

  private static void writeNode(Handle h, EvidenceNode n, Long seq) {
    DateRange span = n.span();
    h.createUpdate("INSERT OR REPLACE INTO nodes(" + Rows.NODE_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(0, seq).bind(1, n.namespace()).bind(2, n.id()).bind(3, n.kind().name()).bind(4, n.key())
        .bind(5, n.label()).bind(6, n.searchText()).bind(7, ColumnCodec.strings(n.recordIds()))
        .bind(8, ColumnCodec.strings(n.sessions())).bind(9, ColumnCodec.strings(n.entities()))
        .bind(10, ColumnCodec.strings(n.tags()))
        .bind(11, span == null ? null : ColumnCodec.iso(span.start()))
        .bind(12, span == null ? null : ColumnCodec.iso(span.end())).bind(13, span == null ? 0 : 1)
        .bind(14, ColumnCodec.turnRanges(n.turnRanges())).execute();
  }

  @Override
  public void putNodes(String namespace, List<EvidenceNode> nodes) {
    ns(namespace);
    checkNodes(namespace, nodes);
    if (nodes.isEmpty()) {
      return;
    }
    db.write(h -> {
      for (EvidenceNode n : nodes) {
        putNode(h, n);
      }
      return null;
    });
  }

  @Override
  public Optional<EvidenceNode> node(String namespace, String id) {
    ns(namespace);
    Objects.requireNonNull(id, "id");
    return db.read(h -> h.createQuery("SELECT " + Rows.NODE_COLUMNS + " FROM nodes WHERE namespace = ? AND id = ?")
        .bind(0, namespace).bind(1, id).map(Rows::node).findOne());
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, Collection<String> ids) {
    return byIds(namespace, ids, 'n', "SELECT " + Rows.NODE_COLUMNS + " FROM nodes", Rows::node, EvidenceNode::id);
  }

  @Override
  public List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    ns(namespace);
    Objects.requireNonNull(kind, "kind");
    long version = readVersion();
    VersionedCache.Key key = new VersionedCache.Key('k', namespace, kind);
    List<EvidenceNode> cached = cache.get(version, key);
    if (cached != null) {
      return cached;
    }
    List<EvidenceNode> out = List.copyOf(db.read(h -> h.createQuery("SELECT " + Rows.NODE_COLUMNS
            + " FROM nodes WHERE namespace = ? AND kind = ? ORDER BY key, id")
        .bind(0, namespace).bind(1, kind.name()).map(Rows::node).list()));
    cache.put(version, key, out);
    return out;
  }

  // ---- lexical search ----

  @Override
  public List<ScoredId> searchText(String namespace, TextField field, String query, int k) {
    ns(namespace);
    Objects.requireNonNull(field, "field");
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0, got " + k);
    }
    String match = LexicalText.query(query);
    if (match == null) {
      return List.of();
    }
    String sql = field == TextField.TURNS
        ? "SELECT 'episode:' || t.session || ':' || t.idx AS hit, -bm25(turns_fts) AS score"
            + " FROM turns_fts JOIN turns t ON t.rowid = turns_fts.rowid"
            + " WHERE turns_fts MATCH :q AND t.namespace = :ns ORDER BY score DESC, hit LIMIT :k"
        : "SELECT r.id AS hit, -bm25(records_fts) AS score"
            + " FROM records_fts JOIN records r ON r.seq = records_fts.rowid"
            + " WHERE records_fts MATCH :q AND r.namespace = :ns ORDER BY score DESC, hit LIMIT :k";
    // routes of one question repeat their variants, so identical searches are common
    long version = readVersion();
    VersionedCache.Key key = new VersionedCache.Key('s', namespace, List.of(field, match, k));
    List<ScoredId> cached = cache.get(version, key);
    if (cached != null) {
      return cached;
    }
    List<ScoredId> out = List.copyOf(db.read(h -> h.createQuery(sql).bind("q", match).bind("ns", namespace)
        .bind("k", k).map((rs, ctx) -> new ScoredId(rs.getString("hit"), rs.getDouble("score"))).list()));
    cache.put(version, key, out);
    return out;
  }

  // ---- deletion ----

  @Override
  public Forgotten forget(String namespace) {
    ns(namespace);
    return db.write(h -> {
      List<String> turnIds = h.createQuery("SELECT 'episode:' || session || ':' || idx FROM turns WHERE namespace = ? ORDER BY rowid")
          .bind(0, namespace).mapTo(String.class).list();
      List<String> recordIds = h.createQuery("SELECT id FROM records WHERE namespace = ? ORDER BY seq")
          .bind(0, namespace).mapTo(String.class).list();
      List<String> nodeIds = h.createQuery("SELECT id FROM nodes WHERE namespace = ? ORDER BY seq")
          .bind(0, namespace).mapTo(String.class).list();
      h.execute("DELETE FROM turns_fts WHERE rowid IN (SELECT rowid FROM turns WHERE namespace = ?)", namespace);
      h.execute("DELETE FROM turns WHERE namespace = ?", namespace);
      h.execute("DELETE FROM segments WHERE namespace = ?", namespace);
      h.execute("DELETE FROM records_fts WHERE rowid IN (SELECT seq FROM records WHERE namespace = ?)", namespace);
      h.execute("DELETE FROM records WHERE namespace = ?", namespace);
      h.execute("DELETE FROM nodes WHERE namespace = ?", namespace);
      return new Forgotten(turnIds, recordIds, nodeIds);
    });
  }

  @Override
  public Forgotten forget(String namespace, String session) {
    ns(namespace);
    nonBlank(session, "session");
    return db.write(h -> {
      List<String> turnIds = h.createQuery("SELECT 'episode:' || session || ':' || idx FROM turns"
              + " WHERE namespace = ? AND session = ? ORDER BY idx")
          .bind(0, namespace).bind(1, session).mapTo(String.class).list();
      h.execute("DELETE FROM turns_fts WHERE rowid IN (SELECT rowid FROM turns WHERE namespace = ? AND session = ?)",
          namespace, session);
      h.execute("DELETE FROM turns WHERE namespace = ? AND session = ?", namespace, session);
      h.execute("DELETE FROM segments WHERE namespace = ? AND session = ?", namespace, session);

      List<String> removedRecords = new ArrayList<>();
      List<Map.Entry<Long, MemoryRecord>> records = h.createQuery("SELECT " + Rows.RECORD_COLUMNS
              + " FROM records WHERE namespace = ? ORDER BY seq")
          .bind(0, namespace).map((rs, ctx) -> Map.entry(rs.getLong("seq"), Rows.record(rs, ctx))).list();
      for (Map.Entry<Long, MemoryRecord> e : records) {
        MemoryRecord kept = SessionPruning.withoutSession(e.getValue(), session);
        if (kept == null) {
          h.execute("DELETE FROM records_fts WHERE rowid = ?", e.getKey());
          h.execute("DELETE FROM records WHERE seq = ?", e.getKey());
          removedRecords.add(e.getValue().id());
        } else if (kept != e.getValue()) {
          writeRecord(h, kept, e.getKey());
        }
      }
      Set<String> gone = new HashSet<>(removedRecords);
      List<String> removedNodes = new ArrayList<>();
      List<Map.Entry<Long, EvidenceNode>> nodes = h.createQuery("SELECT " + Rows.NODE_COLUMNS
              + " FROM nodes WHERE namespace = ? ORDER BY seq")
          .bind(0, namespace).map((rs, ctx) -> Map.entry(rs.getLong("seq"), Rows.node(rs, ctx))).list();
      for (Map.Entry<Long, EvidenceNode> e : nodes) {
        EvidenceNode kept = SessionPruning.withoutRecords(e.getValue(), gone, session);
        if (kept == null) {
          h.execute("DELETE FROM nodes WHERE seq = ?", e.getKey());
          removedNodes.add(e.getValue().id());
        } else if (kept != e.getValue()) {
          writeNode(h, kept, e.getKey());
        }
      }
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

  /**
   * The file's version a read starts at, for the read cache: SQLite's {@code data_version}, which
   * moves whenever any connection, of this process or another, commits. Not read when caching is off.
   */
  private long readVersion() {
    return cache.enabled() ? db.dataVersion() : Long.MIN_VALUE;
  }

}
