package dev.lychee.store.sqlite;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * Versioned schema migrations, applied in order when a database is opened. The applied versions
 * are kept in table {@code schema_version}; every migration runs in its own transaction together
 * with its {@code schema_version} row, so a crash mid-migration leaves the previous version intact.
 */
public final class SchemaMigrations {

  /**
   * One schema step.
   *
   * @param version strictly increasing, starting at 1
   * @param description what it does
   * @param statements the DDL/DML to run, in order
   */
  public record Migration(int version, String description, List<String> statements) {
    public Migration {
      if (version < 1) {
        throw new IllegalArgumentException("migration versions start at 1");
      }
      Objects.requireNonNull(description, "description");
      statements = List.copyOf(statements);
    }
  }

  private final List<Migration> migrations;

  public SchemaMigrations(List<Migration> migrations) {
    List<Migration> sorted = migrations.stream().sorted(Comparator.comparingInt(Migration::version)).toList();
    for (int i = 0; i < sorted.size(); i++) {
      if (sorted.get(i).version() != i + 1) {
        throw new IllegalArgumentException("migration versions must be 1..n without gaps");
      }
    }
    this.migrations = sorted;
  }

  /** The migrations of this release of Lychee. */
  public static SchemaMigrations standard() {
    return new SchemaMigrations(List.of(V1, V2, V3, V4, V5));
  }

  /** The newest version these migrations produce. */
  public int latestVersion() {
    return migrations.size();
  }

  public List<Migration> migrations() {
    return migrations;
  }

  /** The version recorded in the database (0 for a new file). */
  public static int currentVersion(Handle h) {
    h.execute("CREATE TABLE IF NOT EXISTS schema_version ("
        + "version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)");
    return h.createQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version").mapTo(Integer.class).one();
  }

  /**
   * Brings the database to {@link #latestVersion()}.
   *
   * @throws IllegalStateException if the file was written by a newer schema
   */
  void apply(org.jdbi.v3.core.Jdbi jdbi) {
    int current = jdbi.inTransaction(SchemaMigrations::currentVersion);
    if (current > latestVersion()) {
      throw new IllegalStateException("database schema version " + current
          + " is newer than this Lychee supports (" + latestVersion() + ")");
    }
    for (Migration m : migrations) {
      if (m.version() <= current) {
        continue;
      }
      jdbi.useTransaction(h -> {
        // re-check inside the transaction: another process may have migrated meanwhile
        if (currentVersion(h) >= m.version()) {
          return;
        }
        for (String sql : m.statements()) {
          h.execute(sql);
        }
        h.execute("INSERT INTO schema_version(version, description, applied_at) VALUES (?, ?, ?)",
            m.version(), m.description(), java.time.Instant.now().toString());
      });
    }
  }

  /** Migration 1: every table of the store and the vector index. */
  static final Migration V1 = new Migration(1, "turns, segments, records, nodes, FTS5, vectors", List.of(
      """
      CREATE TABLE turns (
        rowid INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        session TEXT NOT NULL,
        idx INTEGER NOT NULL,
        role TEXT NOT NULL,
        speaker TEXT,
        text TEXT NOT NULL,
        time TEXT,
        UNIQUE (namespace, session, idx))""",
      // the lexical index holds pre-tokenised text (see LexicalText); contentless, so turn text
      // is not stored twice
      "CREATE VIRTUAL TABLE turns_fts USING fts5(body, content='', contentless_delete=1, "
          + "tokenize='unicode61 remove_diacritics 0')",
      """
      CREATE TABLE segments (
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        session TEXT NOT NULL,
        first_idx INTEGER NOT NULL,
        last_idx INTEGER NOT NULL,
        state TEXT NOT NULL,
        error TEXT,
        exchanges INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        reason TEXT NOT NULL,
        score REAL,
        probability REAL,
        turns TEXT NOT NULL,
        PRIMARY KEY (namespace, id))""",
      "CREATE INDEX segments_by_session ON segments(namespace, session, first_idx)",
      """
      CREATE TABLE records (
        seq INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        text TEXT NOT NULL,
        entities TEXT NOT NULL,
        tags TEXT NOT NULL,
        t_ref TEXT NOT NULL,
        t_valid_from TEXT NOT NULL,
        t_valid_to TEXT NOT NULL,
        span_start TEXT,
        span_end TEXT,
        has_span INTEGER NOT NULL,
        unparsed INTEGER NOT NULL,
        evidence TEXT NOT NULL,
        session TEXT NOT NULL,
        segment_id TEXT NOT NULL,
        source_role TEXT NOT NULL,
        created_at TEXT,
        UNIQUE (namespace, id))""",
      "CREATE INDEX records_by_type ON records(namespace, type)",
      "CREATE INDEX records_by_span ON records(namespace, has_span, span_start)",
      "CREATE VIRTUAL TABLE records_fts USING fts5(body, content='', contentless_delete=1, "
          + "tokenize='unicode61 remove_diacritics 0')",
      """
      CREATE TABLE nodes (
        seq INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        label TEXT NOT NULL,
        search_text TEXT NOT NULL,
        record_ids TEXT NOT NULL,
        sessions TEXT NOT NULL,
        entities TEXT NOT NULL,
        tags TEXT NOT NULL,
        span_start TEXT,
        span_end TEXT,
        has_span INTEGER NOT NULL,
        turn_ranges TEXT NOT NULL,
        UNIQUE (namespace, id))""",
      "CREATE INDEX nodes_by_kind ON nodes(namespace, kind, key)",
      """
      CREATE TABLE vectors (
        namespace TEXT NOT NULL,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vec BLOB NOT NULL,
        PRIMARY KEY (namespace, kind, id))""",
      // bumped in the same transaction as every vector write, so persisted HNSW files can tell
      // whether they are stale
      """
      CREATE TABLE vector_versions (
        namespace TEXT NOT NULL,
        kind TEXT NOT NULL,
        version INTEGER NOT NULL,
        PRIMARY KEY (namespace, kind))"""));

  /**
   * A per-namespace count of turn deletions, bumped in the transaction that forgets turns: turns
   * are otherwise append-only, so a reader that keeps derived state from the turn log (the turn
   * BM25 postings) catches up by rowid and starts again when this count moves. Row counts and
   * the largest rowid alone cannot tell, because SQLite reuses the rowids of deleted last rows.
   */
  static final Migration V2 = new Migration(2, "turn deletion counts", List.of(
      """
      CREATE TABLE turn_deletions (
        namespace TEXT PRIMARY KEY,
        deletions INTEGER NOT NULL)"""));

  /**
   * Per-namespace record change counts, for a reader that keeps derived state from the records
   * (the record BM25 postings). Records are rewritten in place when merged, so unlike turns they
   * cannot be followed by rowid: every writing transaction bumps the namespace's write count and
   * stamps the rows it writes with it ({@code rev}; rows written before this version keep 0), and
   * every deleting one bumps the deletion count, in the same transaction.
   */
  static final Migration V3 = new Migration(3, "record change counts", List.of(
      "ALTER TABLE records ADD COLUMN rev INTEGER NOT NULL DEFAULT 0",
      "CREATE INDEX records_by_rev ON records(namespace, rev)",
      """
      CREATE TABLE record_changes (
        namespace TEXT PRIMARY KEY,
        writes INTEGER NOT NULL,
        deletions INTEGER NOT NULL)"""));

  /**
   * Per-namespace node change counts, as V3's for records: nodes are rewritten in place when a
   * segment's encoding merges into them (same {@code seq}, more record ids) and when forgetting
   * prunes them, so a reader that keeps the nodes' record links in memory ({@link NodeLinks})
   * catches up by the rows stamped after the write count it read at ({@code rev}; rows written
   * before this version keep 0, so a first read takes them all) and reads the namespace again when
   * its deletion count moved.
   */
  static final Migration V4 = new Migration(4, "node change counts", List.of(
      "ALTER TABLE nodes ADD COLUMN rev INTEGER NOT NULL DEFAULT 0",
      "CREATE INDEX nodes_by_rev ON nodes(namespace, rev)",
      """
      CREATE TABLE node_changes (
        namespace TEXT PRIMARY KEY,
        writes INTEGER NOT NULL,
        deletions INTEGER NOT NULL)"""));

  /**
   * A partial index on the segments not encoded yet, for the reads of pending work ({@code
   * pendingSegments}, {@code pendingNamespaces}): the write path's periodic sweep, its resume on
   * open and {@code encodePending} read only those rows instead of every segment of every
   * namespace (review C F8). It holds the pending segments alone, so it stays small and costs a
   * write only when a segment is stored or changes state. Its columns are the query's order, so the
   * read needs no sort.
   */
  static final Migration V5 = new Migration(5, "partial index on the segments not encoded yet", List.of(
      "CREATE INDEX segments_unencoded ON segments(namespace, session, first_idx, last_idx)"
          + " WHERE state <> 'ENCODED'"));
}
