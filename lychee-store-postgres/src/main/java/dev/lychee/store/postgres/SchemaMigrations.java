package dev.lychee.store.postgres;

import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Versioned schema migrations, applied in order when an instance opens the database. Applied
 * versions are rows of {@code schema_version}. Each migration runs in one transaction with its row,
 * under a transaction-level advisory lock on the schema, so instances starting together migrate it
 * once and a crash mid-migration leaves the previous version intact. A schema newer than this
 * release is refused.
 */
final class SchemaMigrations {

  /**
   * One schema step.
   *
   * @param version strictly increasing, starting at 1
   * @param description what it does
   * @param statements the DDL/DML to run, in order
   */
  record Migration(int version, String description, List<String> statements) {
    Migration {
      if (version < 1) {
        throw new IllegalArgumentException("migration versions start at 1");
      }
      Objects.requireNonNull(description, "description");
      statements = List.copyOf(statements);
    }
  }

  private final List<Migration> migrations;

  SchemaMigrations(List<Migration> migrations) {
    List<Migration> sorted = migrations.stream().sorted(Comparator.comparingInt(Migration::version)).toList();
    for (int i = 0; i < sorted.size(); i++) {
      if (sorted.get(i).version() != i + 1) {
        throw new IllegalArgumentException("migration versions must be 1..n without gaps");
      }
    }
    this.migrations = sorted;
  }

  /** The migrations of this release of Lychee. */
  static SchemaMigrations standard() {
    return new SchemaMigrations(List.of(V1, V2, V3, V4, V5, V6, V7, V8, V9));
  }

  int latestVersion() {
    return migrations.size();
  }

  /** The version recorded in the schema (0 for a new one). */
  static int currentVersion(Handle h) {
    h.execute("CREATE TABLE IF NOT EXISTS schema_version ("
        + "version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    return h.createQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version").mapTo(Integer.class).one();
  }

  /**
   * Brings the schema to {@link #latestVersion()}.
   *
   * @throws PostgresStoreException if the schema was written by a newer release
   */
  void apply(Jdbi jdbi, String schema) {
    jdbi.useTransaction(h -> {
      unbounded(h);
      lock(h, schema);
      h.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
    });
    for (Migration m : migrations) {
      jdbi.useTransaction(h -> {
        unbounded(h);
        lock(h, schema);
        int current = currentVersion(h);
        if (current > latestVersion()) {
          throw new PostgresStoreException("schema '" + schema + "' has version " + current
              + ", newer than this Lychee supports (" + latestVersion() + "); upgrade Lychee or use another schema");
        }
        if (current >= m.version()) {
          return;
        }
        for (String sql : m.statements()) {
          h.execute(sql);
        }
        h.execute("INSERT INTO schema_version(version, description) VALUES (?, ?)", m.version(), m.description());
      });
    }
    int finalVersion = jdbi.withHandle(SchemaMigrations::currentVersion);
    if (finalVersion > latestVersion()) {
      throw new PostgresStoreException("schema '" + schema + "' has version " + finalVersion
          + ", newer than this Lychee supports (" + latestVersion() + "); upgrade Lychee or use another schema");
    }
  }

  /**
   * Lifts the pool's timeouts for this transaction (docs/defaults.md §3.3): a migration may rewrite
   * a large table, and an instance waits, silent, on the lock below for as long as another instance
   * migrates. The statement settings end with the transaction; the pool restores the connection's
   * socket timeout when the connection is returned.
   */
  private static void unbounded(Handle h) {
    try {
      // the executor is not used by the PostgreSQL driver (it sets the socket's timeout directly)
      h.getConnection().setNetworkTimeout(Runnable::run, 0);
    } catch (SQLException e) {
      // a DataSource whose driver cannot change it keeps its own socket timeout
    }
    h.createQuery("SELECT set_config('statement_timeout', '0', true) || set_config('lock_timeout', '0', true)")
        .mapTo(String.class).one();
  }

  /** Serialises migrations of one schema across instances until the transaction ends. */
  private static void lock(Handle h, String schema) {
    h.createQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext(:k))) l").bind("k", "lychee-migrate:" + schema)
        .mapTo(Integer.class).one();
  }

  /** Migration 1: every table of the store, the vector rows and the change sequence. */
  static final Migration V1 = new Migration(1, "turns, sessions, segments, records, nodes, tsvector, vectors", List.of(
      // one order for sessions, records and nodes: the sequence hands out increasing numbers, so
      // "first insertion order" survives merges and concurrent writers
      "CREATE SEQUENCE insert_order",
      """
      CREATE TABLE sessions (
        namespace text NOT NULL,
        session text NOT NULL,
        next_idx integer NOT NULL,
        seq bigint NOT NULL DEFAULT nextval('insert_order'),
        PRIMARY KEY (namespace, session))""",
      """
      CREATE TABLE turns (
        namespace text NOT NULL,
        session text NOT NULL,
        idx integer NOT NULL,
        role text NOT NULL,
        speaker text,
        text text NOT NULL,
        time timestamp,
        tsv tsvector NOT NULL,
        PRIMARY KEY (namespace, session, idx))""",
      "CREATE INDEX turns_tsv ON turns USING gin (tsv)",
      // an allocating append remembers its token, so a retry after a lost acknowledgement finds
      // the turns it already stored instead of storing them again under new indices
      """
      CREATE TABLE turn_appends (
        namespace text NOT NULL,
        session text NOT NULL,
        token uuid NOT NULL,
        first_idx integer NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (namespace, session, token))""",
      """
      CREATE TABLE segments (
        namespace text NOT NULL,
        id text NOT NULL,
        session text NOT NULL,
        first_idx integer NOT NULL,
        last_idx integer NOT NULL,
        state text NOT NULL,
        error text,
        exchanges integer NOT NULL,
        tokens integer NOT NULL,
        reason text NOT NULL,
        score double precision,
        probability double precision,
        turns text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        claimed_by text,
        claim_expires timestamptz,
        seq bigint NOT NULL DEFAULT nextval('insert_order'),
        PRIMARY KEY (namespace, id))""",
      "CREATE INDEX segments_by_session ON segments (namespace, session, first_idx)",
      "CREATE INDEX segments_pending ON segments (seq) WHERE state = 'PENDING'",
      """
      CREATE TABLE records (
        namespace text NOT NULL,
        id text NOT NULL,
        type text NOT NULL,
        text text NOT NULL,
        entities text NOT NULL,
        tags text NOT NULL,
        t_ref text NOT NULL,
        t_valid_from text NOT NULL,
        t_valid_to text NOT NULL,
        span_start date,
        span_end date,
        has_span boolean NOT NULL,
        unparsed boolean NOT NULL,
        evidence text NOT NULL,
        session text NOT NULL,
        segment_id text NOT NULL,
        source_role text NOT NULL,
        created_at timestamp,
        tsv tsvector NOT NULL,
        seq bigint NOT NULL DEFAULT nextval('insert_order'),
        PRIMARY KEY (namespace, id))""",
      "CREATE INDEX records_by_seq ON records (namespace, seq)",
      "CREATE INDEX records_by_type ON records (namespace, type, seq)",
      "CREATE INDEX records_tsv ON records USING gin (tsv)",
      """
      CREATE TABLE nodes (
        namespace text NOT NULL,
        id text NOT NULL,
        kind text NOT NULL,
        key text NOT NULL,
        label text NOT NULL,
        search_text text NOT NULL,
        record_ids text NOT NULL,
        sessions text NOT NULL,
        entities text NOT NULL,
        tags text NOT NULL,
        span_start date,
        span_end date,
        has_span boolean NOT NULL,
        turn_ranges text NOT NULL,
        seq bigint NOT NULL DEFAULT nextval('insert_order'),
        PRIMARY KEY (namespace, id))""",
      "CREATE INDEX nodes_by_kind ON nodes (namespace, kind, key, id)",
      // the change sequence of vector writes; see VectorTable for why a head row per index
      "CREATE SEQUENCE vector_changes",
      """
      CREATE TABLE vector_heads (
        namespace text NOT NULL,
        kind text NOT NULL,
        seq bigint NOT NULL,
        epoch bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (namespace, kind))""",
      """
      CREATE TABLE vectors (
        namespace text NOT NULL,
        kind text NOT NULL,
        id text NOT NULL,
        dim integer NOT NULL,
        vec bytea NOT NULL,
        seq bigint NOT NULL,
        PRIMARY KEY (namespace, kind, id))""",
      "CREATE INDEX vectors_by_seq ON vectors (namespace, kind, seq)",
      """
      CREATE TABLE vector_tombstones (
        namespace text NOT NULL,
        kind text NOT NULL,
        id text NOT NULL,
        seq bigint NOT NULL,
        PRIMARY KEY (namespace, kind, id))""",
      "CREATE INDEX vector_tombstones_by_seq ON vector_tombstones (namespace, kind, seq)"));

  /**
   * Migration 2: partial indexes for the claim queries ({@link PostgresSegmentClaims#claimNext}),
   * which look only at segments that are not ENCODED, or claimed: without them every claim scanned
   * the whole table (101 ms against 0.1 ms on 200,000 segments, 80 of them PENDING). The index on
   * PENDING segments of V1 matched no query ({@code state <> 'ENCODED'} takes FAILED too) and goes.
   */
  static final Migration V2 = new Migration(2, "partial indexes for claiming segments", List.of(
      "DROP INDEX segments_pending",
      "CREATE INDEX segments_unencoded ON segments (namespace, seq) WHERE state <> 'ENCODED'",
      "CREATE INDEX segments_unencoded_by_session ON segments (namespace, session, first_idx, last_idx)"
          + " WHERE state <> 'ENCODED'",
      "CREATE INDEX segments_claimed ON segments (namespace, session) WHERE claim_expires IS NOT NULL"));

  /**
   * Migration 3: a change number on every turn and one head row per namespace, so that an instance
   * can keep the turns' full-text postings in memory and bring them up to date by reading only the
   * turns written since ({@link TextPostings}, docs/defaults.md §3.3), as it does its vectors.
   *
   * <p>Triggers do the stamping, not the insert statements: an instance of an older release,
   * still running while a newer one migrated the schema, stamps its turns too, and no append sends
   * an extra statement. Every inserted turn takes the next number on its namespace's head row,
   * which holds that row's lock until commit, so turns of one namespace commit in number order and
   * a snapshot that shows the head at N shows every turn numbered up to N (the reason
   * {@link VectorTable} gives). A deletion of turns moves the head to a new epoch, so instances
   * read the namespace afresh instead of replaying deletions. Turns stored before this migration
   * keep number 0 and are read by an instance's first full load; their namespaces get a head row
   * here. {@code SET search_path FROM CURRENT} binds the functions to this schema.
   */
  static final Migration V3 = new Migration(3, "turn change numbers and heads for local full-text postings", List.of(
      "CREATE SEQUENCE turn_changes",
      """
      CREATE TABLE turn_heads (
        namespace text PRIMARY KEY,
        epoch bigint NOT NULL DEFAULT 0,
        seq bigint NOT NULL)""",
      "ALTER TABLE turns ADD COLUMN seq bigint NOT NULL DEFAULT 0",
      "CREATE INDEX turns_by_seq ON turns (namespace, seq)",
      "INSERT INTO turn_heads(namespace, seq) SELECT DISTINCT namespace, 0 FROM turns",
      """
      CREATE FUNCTION turns_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO turn_heads(namespace, seq) VALUES (NEW.namespace, nextval('turn_changes'))
          ON CONFLICT (namespace) DO UPDATE SET seq = nextval('turn_changes')
          RETURNING seq INTO NEW.seq;
        RETURN NEW;
      END $$""",
      "CREATE TRIGGER turns_stamp BEFORE INSERT ON turns FOR EACH ROW EXECUTE FUNCTION turns_stamp()",
      """
      CREATE FUNCTION turns_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE turn_heads SET epoch = epoch + 1, seq = nextval('turn_changes')
          WHERE namespace IN (SELECT DISTINCT namespace FROM gone);
        RETURN NULL;
      END $$""",
      "CREATE TRIGGER turns_deleted AFTER DELETE ON turns REFERENCING OLD TABLE AS gone"
          + " FOR EACH STATEMENT EXECUTE FUNCTION turns_deleted()"));

  /**
   * Migration 4: a change number on every record and evidence node and one head row per namespace
   * for both tables, so that an instance can keep a namespace's records and nodes decoded in memory
   * and bring them up to date by reading only the rows written since ({@link LocalRows},
   * docs/defaults.md §3.3), as migration 3 does for the turns. An insert or an update (a merge)
   * takes the next number on the head row, whose lock it holds until commit, so rows of one
   * namespace commit in number order; a deletion moves the head to a new epoch. A put that finds
   * its id stored (its insert does nothing) still moves the head, which costs a catch-up that finds
   * no row and nothing else. Rows stored before this migration keep 0 and are read by an instance's
   * first full load; their namespaces get a head row here.
   */
  static final Migration V4 = new Migration(4, "record and node change numbers and heads for local copies", List.of(
      "CREATE SEQUENCE row_changes",
      """
      CREATE TABLE row_heads (
        namespace text PRIMARY KEY,
        epoch bigint NOT NULL DEFAULT 0,
        seq bigint NOT NULL)""",
      "ALTER TABLE records ADD COLUMN change_seq bigint NOT NULL DEFAULT 0",
      "ALTER TABLE nodes ADD COLUMN change_seq bigint NOT NULL DEFAULT 0",
      "CREATE INDEX records_by_change ON records (namespace, change_seq)",
      "CREATE INDEX nodes_by_change ON nodes (namespace, change_seq)",
      "INSERT INTO row_heads(namespace, seq) SELECT namespace, 0 FROM records UNION SELECT namespace, 0 FROM nodes",
      """
      CREATE FUNCTION rows_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO row_heads(namespace, seq) VALUES (NEW.namespace, nextval('row_changes'))
          ON CONFLICT (namespace) DO UPDATE SET seq = nextval('row_changes')
          RETURNING seq INTO NEW.change_seq;
        RETURN NEW;
      END $$""",
      "CREATE TRIGGER records_stamp BEFORE INSERT OR UPDATE ON records FOR EACH ROW EXECUTE FUNCTION rows_stamp()",
      "CREATE TRIGGER nodes_stamp BEFORE INSERT OR UPDATE ON nodes FOR EACH ROW EXECUTE FUNCTION rows_stamp()",
      """
      CREATE FUNCTION rows_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE row_heads SET epoch = epoch + 1, seq = nextval('row_changes')
          WHERE namespace IN (SELECT DISTINCT namespace FROM gone);
        RETURN NULL;
      END $$""",
      "CREATE TRIGGER records_deleted AFTER DELETE ON records REFERENCING OLD TABLE AS gone"
          + " FOR EACH STATEMENT EXECUTE FUNCTION rows_deleted()",
      "CREATE TRIGGER nodes_deleted AFTER DELETE ON nodes REFERENCING OLD TABLE AS gone"
          + " FOR EACH STATEMENT EXECUTE FUNCTION rows_deleted()"));

  /**
   * Migration 5: the segment put and the claim as server-side functions, each called as one
   * statement ({@link SegmentTable#putAlone}, {@link PostgresSegmentClaims}). Why (round twenty,
   * docs/measurements.md §6): each was a transaction of four round trips (the lock, a read, the write,
   * {@code COMMIT}) sent one after another on the encoder's thread for every segment. One statement
   * cannot do it: its snapshot is taken before it waits for the lock, so it would miss a segment or
   * a claim that the lock's previous holder committed meanwhile; a function's statements each take a
   * fresh snapshot (READ COMMITTED, a volatile function), so every read after the lock sees what the
   * previous holder committed, as the transactions did. Instances of an older release keep sending
   * the transactions, which take the same locks in the same order.
   *
   * <p>{@code segment_put} returns false, writing nothing, when a stored segment of the session has a
   * first-to-last range meeting the new one's; the caller then decides by the turns themselves
   * ({@link dev.lychee.core.store.SegmentOverlap}) in the transaction. {@code segment_claim} returns the
   * refusal ({@code SESSION_BUSY}, {@code NOT_CLAIMABLE}) or {@code NONE} with the claim's expiry and
   * attempt count.
   */
  static final Migration V5 = new Migration(5, "segment put and claim as one statement each", List.of(
      """
      CREATE FUNCTION segment_put(p_ns text, p_session text, p_id text, p_first integer, p_last integer,
          p_state text, p_exchanges integer, p_tokens integer, p_reason text, p_score double precision,
          p_probability double precision, p_turns text)
        RETURNS boolean LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        v_next integer;
        v_met boolean;
      BEGIN
        INSERT INTO sessions(namespace, session, next_idx) VALUES (p_ns, p_session, 0)
          ON CONFLICT (namespace, session) DO UPDATE SET next_idx = sessions.next_idx RETURNING next_idx INTO v_next;
        v_met := EXISTS (SELECT 1 FROM segments g WHERE g.namespace = p_ns AND g.session = p_session
          AND g.first_idx <= p_last AND g.last_idx >= p_first);
        IF NOT v_met THEN
          INSERT INTO segments(namespace, id, session, first_idx, last_idx, state, error, exchanges, tokens, reason,
              score, probability, turns)
            VALUES (p_ns, p_id, p_session, p_first, p_last, p_state, NULL, p_exchanges, p_tokens, p_reason,
              p_score, p_probability, p_turns);
        END IF;
        IF v_next = 0 THEN
          DELETE FROM sessions WHERE namespace = p_ns AND session = p_session AND next_idx = 0;
        END IF;
        RETURN NOT v_met;
      END $$""",
      """
      CREATE FUNCTION segment_claim(p_ns text, p_session text, p_id text, p_owner text, p_secs double precision,
          p_lock_class integer, p_lock_key integer, p_head_only boolean,
          OUT o_refusal text, OUT o_expires timestamptz, OUT o_attempts integer)
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF p_head_only THEN
          IF NOT pg_try_advisory_xact_lock(p_lock_class, p_lock_key) THEN
            o_refusal := 'SESSION_BUSY';
            RETURN;
          END IF;
        ELSE
          PERFORM pg_advisory_xact_lock(p_lock_class, p_lock_key);
        END IF;
        IF EXISTS (SELECT 1 FROM segments g WHERE g.namespace = p_ns AND g.session = p_session
            AND g.claim_expires > now() AND NOT (g.id = p_id AND g.claimed_by = p_owner)) THEN
          o_refusal := 'SESSION_BUSY';
          RETURN;
        END IF;
        IF p_head_only AND EXISTS (SELECT 1 FROM segments e, segments me WHERE me.namespace = p_ns
            AND me.id = p_id AND e.namespace = me.namespace AND e.session = me.session AND e.id <> me.id
            AND e.state <> 'ENCODED' AND (e.first_idx, e.last_idx) < (me.first_idx, me.last_idx)) THEN
          o_refusal := 'NOT_CLAIMABLE';
          RETURN;
        END IF;
        -- a renewal of the caller's own live claim is not a new attempt
        UPDATE segments g SET attempts = g.attempts
            + CASE WHEN g.claimed_by = p_owner AND g.claim_expires > now() THEN 0 ELSE 1 END,
            claimed_by = p_owner, claim_expires = now() + make_interval(secs => p_secs)
          WHERE g.namespace = p_ns AND g.id = p_id AND g.state <> 'ENCODED'
          RETURNING g.claim_expires, g.attempts INTO o_expires, o_attempts;
        o_refusal := CASE WHEN FOUND THEN 'NONE' ELSE 'NOT_CLAIMABLE' END;
      END $$"""));

  /**
   * Migration 6: one change number per transaction and namespace for records and nodes, where
   * migration 4 took one per row. Why (round twenty, docs/measurements.md §6): every inserted or
   * merged row upserted its namespace's head row, about a hundred times in one segment's
   * transaction, each upsert a new version of the same row that nothing can prune before the
   * commit. Now a transaction's first stamp of a namespace upserts the head row as before, taking
   * its lock and the next number, and remembers the number for the rest of the transaction in a
   * transaction-local setting ({@code lychee.row_stamp}, keyed by schema and namespace); every
   * later row of that namespace in the transaction takes the same number without touching the head.
   *
   * <p>What readers rely on holds: the head row is locked from the transaction's first stamp to its
   * commit, so transactions that write a namespace commit in number order, the head shows the
   * number of the last one committed, and every row stamped with a number up to the head is
   * committed (the rows of one transaction share the number and commit together). A deletion moves
   * the head to a new epoch and forgets the remembered number, so a later row in the transaction
   * stamps afresh. A rolled-back savepoint restores the setting with the head row. Instances of an
   * older release run the same triggers: the functions are replaced in place.
   */
  static final Migration V6 = new Migration(6, "one record and node change number per transaction", List.of(
      """
      CREATE OR REPLACE FUNCTION rows_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        v_key text := current_schema() || '.' || NEW.namespace;
        v_held text := current_setting('lychee.row_stamp', true);
      BEGIN
        IF v_held IS NOT NULL AND substr(v_held, strpos(v_held, ' ') + 1) = v_key THEN
          NEW.change_seq := CAST(split_part(v_held, ' ', 1) AS bigint);
          RETURN NEW;
        END IF;
        INSERT INTO row_heads(namespace, seq) VALUES (NEW.namespace, nextval('row_changes'))
          ON CONFLICT (namespace) DO UPDATE SET seq = nextval('row_changes')
          RETURNING seq INTO NEW.change_seq;
        PERFORM set_config('lychee.row_stamp', NEW.change_seq || ' ' || v_key, true);
        RETURN NEW;
      END $$""",
      """
      CREATE OR REPLACE FUNCTION rows_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE row_heads SET epoch = epoch + 1, seq = nextval('row_changes')
          WHERE namespace IN (SELECT DISTINCT namespace FROM gone);
        PERFORM set_config('lychee.row_stamp', '', true);
        RETURN NULL;
      END $$"""));

  /**
   * Migration 7: the nodes' {@code record_ids} stored out of line without compression ({@code
   * STORAGE EXTERNAL}). Why (round twenty-three, docs/measurements.md §6): every segment rewrites the
   * nodes it merges into, the speakers' and frequent tags' among them, whose lists of record ids
   * grow to 20 to 40 KB, and the server tried to compress every new list before storing it
   * uncompressed: a list of 64-digit hexadecimal ids never reaches pglz's 25% saving (in a LoCoMo
   * ingest the column stored 659,860 bytes for 654,312 characters). Stored values and reads are
   * unchanged; only the attempt goes. Changes the column's metadata alone (no table rewrite, a
   * moment's exclusive lock); lists stored before stay as they are until rewritten.
   */
  static final Migration V7 = new Migration(7, "nodes' record_ids stored without compression attempts", List.of(
      "ALTER TABLE nodes ALTER COLUMN record_ids SET STORAGE EXTERNAL"));

  /**
   * Migration 8: a node's record ids in two columns, the list's stored start ({@code
   * record_ids_base}, the former {@code record_ids}, still {@code STORAGE EXTERNAL}) and the ids
   * appended since ({@code record_ids_tail}, a JSON list, empty for every stored node), so that a
   * merge writes the ids it appends and keeps the stored start, TOAST value and all, instead of
   * writing the whole list again ({@link NodeTable}). Why (round twenty-four, docs/measurements.md
   * §6): the rewrites of the nodes every segment merges into were the largest server cost of an
   * ingest (59 statements, 11.9 MB of WAL in a LoCoMo conversation), most of it the lists of 17 to
   * 33 KB of the speakers' and frequent tags' nodes stored again at each merge. The tail is stored
   * out of line without compression too (hexadecimal ids do not compress). Metadata only: the
   * rename and a column with a constant default rewrite no row.
   *
   * <p>The column is renamed, not kept under its old name with the start only in it, so that an
   * instance of an older release still running fails on its first read or write of a node (no
   * column {@code record_ids}) instead of reading lists without their tails; it must be restarted
   * on this release.
   */
  static final Migration V8 = new Migration(8, "nodes' record ids as a kept base and an appended tail", List.of(
      "ALTER TABLE nodes RENAME COLUMN record_ids TO record_ids_base",
      "ALTER TABLE nodes ADD COLUMN record_ids_tail text NOT NULL DEFAULT '[]'",
      "ALTER TABLE nodes ALTER COLUMN record_ids_tail SET STORAGE EXTERNAL"));

  /**
   * Migration 9: the nodes' compressible text columns ({@code search_text}, {@code sessions},
   * {@code entities}, {@code tags}, {@code turn_ranges}) compressed with LZ4 instead of pglz, the
   * server's default, when the server was built with LZ4 (it lists {@code lz4} among {@code
   * default_toast_compression}'s values; a server without it keeps pglz and the migration changes
   * nothing). Why (round twenty-five, docs/measurements.md §6): every segment rewrites the nodes it
   * merges into, and the hot ones (the speakers', the frequent tags') carry an 8,000-character
   * {@code search_text} and up to 7 KB of tags and 4 KB of turn ranges, which the server compressed
   * anew with pglz at each rewrite, and decompressed at each locking read and catch-up; LZ4 does
   * both several times faster for a slightly larger value (rewriting the 60 largest nodes of a LoCoMo
   * ingest took about 40% less server time for 8% more WAL). Values stored before keep pglz until
   * rewritten; every value names its own method, so reads of either are the same text. Metadata
   * only (no table rewrite, a moment's exclusive lock), and instances of an earlier release read and
   * write the same columns as before, so they need no restart.
   */
  static final Migration V9 = new Migration(9, "nodes' text columns compressed with LZ4 where the server has it",
      List.of("""
      DO $$
      BEGIN
        IF 'lz4' = ANY (SELECT unnest(enumvals) FROM pg_settings WHERE name = 'default_toast_compression') THEN
          ALTER TABLE nodes ALTER COLUMN search_text SET COMPRESSION lz4, ALTER COLUMN sessions SET COMPRESSION lz4,
            ALTER COLUMN entities SET COMPRESSION lz4, ALTER COLUMN tags SET COMPRESSION lz4,
            ALTER COLUMN turn_ranges SET COMPRESSION lz4;
        END IF;
      END $$"""));
}
