package dev.lychee.store.postgres;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Tables {@code turns}, {@code sessions} and {@code turn_appends}: raw turns with their tsvector,
 * one row per session holding its next free index, and the tokens of allocating appends.
 *
 * <p>Every append first locks its session's row (an upsert), so appends to one session, from any
 * instance, run one after another: indices are handed out exactly once, without gaps, and
 * {@code next_idx} always equals one past the highest stored index.
 */
final class TurnTable {
  static final String COLUMNS = "namespace, session, idx, role, speaker, text, time";
  private static final int IN_CHUNK = 1000;

  static RawTurn map(ResultSet rs, StatementContext ctx) throws SQLException {
    return new RawTurn(rs.getString("namespace"), new TurnRef(rs.getString("session"), rs.getInt("idx")),
        Role.parse(rs.getString("role")), Columns.untext(rs.getString("speaker")),
        Columns.untext(rs.getString("text")), Columns.time(rs, "time"));
  }

  /**
   * Locks the session's row (creating it) and returns its next free index. Appends and segment
   * puts of the session take this lock, so they run one after another across instances; a caller
   * that stores no turn ends with {@link #dropIfEmpty}.
   */
  static int lockSession(Handle h, String ns, String session) {
    return h.createQuery("INSERT INTO sessions(namespace, session, next_idx) VALUES (:ns, :s, 0)"
            + " ON CONFLICT (namespace, session) DO UPDATE SET next_idx = sessions.next_idx RETURNING next_idx")
        .bind("ns", ns).bind("s", session).mapTo(Integer.class).one();
  }

  /**
   * Inserts the turns in one batch, one round trip however many (round nineteen: a session's turns
   * went one statement each while the transaction held the session's row lock, 22 round trips for a
   * LoCoMo session; docs/measurements.md §6). Rows run in order, so of two turns with one index the
   * second finds the first stored, as it did one statement at a time.
   *
   * @return the turns stored, in order; a turn whose ref was stored already is skipped
   */
  private static List<RawTurn> insertAll(Handle h, List<RawTurn> turns) {
    if (turns.isEmpty()) {
      return new ArrayList<>();
    }
    PreparedBatch batch = h.prepareBatch("INSERT INTO turns(" + COLUMNS + ", tsv) VALUES (:ns, :s, :idx, :role,"
        + " :speaker, :text, :time, to_tsvector('simple', :doc)) ON CONFLICT (namespace, session, idx) DO NOTHING");
    for (RawTurn t : turns) {
      batch.bind("ns", t.namespace()).bind("s", t.session()).bind("idx", t.index()).bind("role", t.role().wireName())
          .bind("speaker", Columns.text(t.speaker())).bind("text", Columns.text(t.text()))
          .bind("time", Columns.time(t.time())).bind("doc", TextQuery.document(t.content())).add();
    }
    int[] inserted = batch.execute();
    List<RawTurn> added = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      if (inserted[i] == 1) {
        added.add(turns.get(i));
      }
    }
    return added;
  }

  private static void advance(Handle h, String ns, String session, int next) {
    h.createUpdate("UPDATE sessions SET next_idx = GREATEST(next_idx, :n) WHERE namespace = :ns AND session = :s")
        .bind("n", next).bind("ns", ns).bind("s", session).execute();
  }

  /** Stores turns with their own indices; stored refs are skipped. */
  List<RawTurn> append(Handle h, String ns, String session, List<RawTurn> turns) {
    lockSession(h, ns, session);
    List<RawTurn> added = insertAll(h, turns);
    int next = 0;
    for (RawTurn t : turns) {
      next = Math.max(next, t.index() + 1);
    }
    advance(h, ns, session, next);
    dropIfEmpty(h, ns, session);
    return added;
  }

  /**
   * Stores the turns {@code admit} returns for the session's next free index, read under the
   * session's row lock, so no other writer can take that index before this transaction commits.
   * The token makes a re-run of the same call (after a lost acknowledgement) return what the first
   * run stored instead of storing its turns again under fresh indices.
   */
  List<RawTurn> appendAdmitted(Handle h, String ns, String session, IntFunction<List<RawTurn>> admit, UUID token) {
    return appendAdmitted(h, ns, session, admit, token, true).added();
  }

  /** What an admitted append stored, and the session's next index after it. */
  record Admitted(List<RawTurn> added, int next) {}

  /**
   * As {@link #appendAdmitted(Handle, String, String, IntFunction, UUID)}, sending as few statements
   * as the call needs (each is a round trip an {@code append} waits for): {@code rerun} false says
   * this is the call's first run, so its fresh token cannot have a stored run to look up; the
   * session's next index moves and the run is recorded in one statement; a session left with turns
   * needs no empty-session clean-up.
   */
  Admitted appendAdmitted(Handle h, String ns, String session, IntFunction<List<RawTurn>> admit, UUID token,
      boolean rerun) {
    int next = lockSession(h, ns, session);
    if (rerun) {
      Optional<Map.Entry<Integer, Integer>> done = previousRun(h, ns, session, token);
      if (done.isPresent()) {
        int first = done.get().getKey();
        return new Admitted(window(h, ns, session, first, first + done.get().getValue() - 1), next);
      }
    }
    List<RawTurn> batch = admit.apply(next);
    List<RawTurn> added = insertAll(h, batch);
    int highest = next - 1;
    int lowest = Integer.MAX_VALUE;
    for (RawTurn t : added) {
      lowest = Math.min(lowest, t.index());
      highest = Math.max(highest, t.index());
    }
    if (!added.isEmpty()) {
      advanceAndRecordRun(h, ns, session, highest + 1, token, lowest, highest + 1 - lowest);
    } else if (highest + 1 > next) {
      advance(h, ns, session, highest + 1);
    }
    if (Math.max(next, highest + 1) == 0) {
      // the row lockSession created for a session that still has no turn
      dropIfEmpty(h, ns, session);
    }
    return new Admitted(added, Math.max(next, highest + 1));
  }

  /** Most turns {@link #appendInOrder} sends in its one statement (six parameters each); more take the transaction. */
  static final int MAX_IN_ORDER_TURNS = 64;

  /**
   * Whether {@link #appendInOrder} can store {@code batch} as the turns admitted at {@code expected}:
   * at least one turn and at most {@value #MAX_IN_ORDER_TURNS}, every index at or above
   * {@code expected} and none twice.
   */
  static boolean inOrder(List<RawTurn> batch, int expected) {
    if (batch.isEmpty() || batch.size() > MAX_IN_ORDER_TURNS) {
      return false;
    }
    Set<Integer> seen = new HashSet<>();
    for (RawTurn t : batch) {
      if (t.index() < expected || !seen.add(t.index())) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #appendAdmitted}'s transaction as one statement, for a run in autocommit ({@link
   * PostgresDatabase#writeStatement}), when the caller knows the turns {@code admit} gives for the
   * next index it expects ({@link #inOrder}): the session's row is locked by an {@code UPDATE} that
   * moves its next index only if it still is {@code expected} (re-checked on the row's newest
   * version after a concurrent writer commits, as READ COMMITTED does), and the turns and the run
   * record are inserted only if it did. Then no turn at or above {@code expected} is stored (the
   * next index is one past the highest stored one), so every turn is new and the result is what the
   * transaction stores for the same call; a turn stored meanwhile against that rule fails the
   * statement with a unique violation and nothing is written. Why: the transaction is four round
   * trips (lock, turns, next index and run record, commit) that an {@code append} sends one after
   * another while holding the session's lock, which the segmentation lane's writes wait for
   * (docs/measurements.md §6, rounds seventeen and eighteen).
   *
   * @return whether the turns were stored; false (nothing written) when the session's next index is
   *     not {@code expected} or the session has no row yet
   */
  boolean appendInOrder(Handle h, String ns, String session, int expected, List<RawTurn> batch, UUID token) {
    int lowest = Integer.MAX_VALUE;
    int highest = Integer.MIN_VALUE;
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < batch.size(); i++) {
      lowest = Math.min(lowest, batch.get(i).index());
      highest = Math.max(highest, batch.get(i).index());
      rows.append(i == 0 ? "" : ", ").append("(CAST(:idx").append(i).append(" AS integer), CAST(:role").append(i)
          .append(" AS text), CAST(:speaker").append(i).append(" AS text), CAST(:text").append(i)
          .append(" AS text), CAST(:time").append(i).append(" AS timestamp), CAST(:doc").append(i).append(" AS text))");
    }
    Query statement = h.createQuery("WITH lock AS (UPDATE sessions SET next_idx = :n"
            + " WHERE namespace = :ns AND session = :s AND next_idx = :expected RETURNING next_idx),"
            + " put AS (INSERT INTO turns(" + COLUMNS + ", tsv)"
            + " SELECT :ns, :s, v.idx, v.role, v.speaker, v.text, v.time, to_tsvector('simple', v.doc)"
            + " FROM lock, (VALUES " + rows + ") AS v(idx, role, speaker, text, time, doc) RETURNING idx),"
            + " run AS (INSERT INTO turn_appends(namespace, session, token, first_idx, count)"
            + " SELECT :ns, :s, :t, :f, :c FROM lock)"
            + " SELECT COUNT(*) FROM put")
        .bind("ns", ns).bind("s", session).bind("expected", expected).bind("n", highest + 1)
        .bind("t", token).bind("f", lowest).bind("c", highest + 1 - lowest);
    for (int i = 0; i < batch.size(); i++) {
      RawTurn t = batch.get(i);
      statement.bind("idx" + i, t.index()).bind("role" + i, t.role().wireName())
          .bind("speaker" + i, Columns.text(t.speaker())).bind("text" + i, Columns.text(t.text()))
          .bind("time" + i, Columns.time(t.time())).bind("doc" + i, TextQuery.document(t.content()));
    }
    return statement.mapTo(Long.class).one() > 0;
  }

  /** {@link #advance} and {@link #recordRun} in one statement (a data-modifying CTE always runs). */
  private static void advanceAndRecordRun(Handle h, String ns, String session, int next, UUID token, int first, int count) {
    h.createUpdate("WITH moved AS (UPDATE sessions SET next_idx = GREATEST(next_idx, :n) WHERE namespace = :ns AND session = :s)"
            + " INSERT INTO turn_appends(namespace, session, token, first_idx, count) VALUES (:ns, :s, :t, :f, :c)")
        .bind("n", next).bind("ns", ns).bind("s", session).bind("t", token).bind("f", first).bind("c", count).execute();
  }

  private static Optional<Map.Entry<Integer, Integer>> previousRun(Handle h, String ns, String session, UUID token) {
    return h.createQuery("SELECT first_idx, count FROM turn_appends WHERE namespace = :ns AND session = :s AND token = :t")
        .bind("ns", ns).bind("s", session).bind("t", token)
        .map((rs, ctx) -> Map.entry(rs.getInt(1), rs.getInt(2))).findOne();
  }

  private static void recordRun(Handle h, String ns, String session, UUID token, int first, int count) {
    h.createUpdate("INSERT INTO turn_appends(namespace, session, token, first_idx, count) VALUES (:ns, :s, :t, :f, :c)")
        .bind("ns", ns).bind("s", session).bind("t", token).bind("f", first).bind("c", count).execute();
  }

  /**
   * Stores turns, giving every turn without an index ({@code -1}) the next free one; turns with an
   * index behave as in {@link #append}. The token makes a re-run of the same call (after a lost
   * acknowledgement) return the turns the first run stored instead of storing them again.
   */
  List<RawTurn> appendAssigning(Handle h, String ns, String session, List<Turn> turns, UUID token) {
    int next = lockSession(h, ns, session);
    Optional<Map.Entry<Integer, Integer>> done = previousRun(h, ns, session, token);
    if (done.isPresent()) {
      int first = done.get().getKey();
      return window(h, ns, session, first, first + done.get().getValue() - 1);
    }
    Set<Integer> explicit = new HashSet<>();
    for (Turn t : turns) {
      if (t.index() >= 0) {
        explicit.add(t.index());
      }
    }
    int first = next;
    int highest = next - 1;
    List<RawTurn> raws = new ArrayList<>(turns.size());
    for (Turn t : turns) {
      int idx = t.index();
      if (idx < 0) {
        while (explicit.contains(next)) {
          next++;
        }
        idx = next++;
      }
      raws.add(new RawTurn(ns, new TurnRef(session, idx), t.role(), t.speaker(), t.text(), t.time()));
      highest = Math.max(highest, idx);
    }
    List<RawTurn> added = insertAll(h, raws);
    advance(h, ns, session, highest + 1);
    recordRun(h, ns, session, token, first, Math.max(0, highest + 1 - first));
    dropIfEmpty(h, ns, session);
    added.sort((a, b) -> Integer.compare(a.index(), b.index()));
    return added;
  }

  /** A session row exists only while the session holds a turn. */
  static void dropIfEmpty(Handle h, String ns, String session) {
    h.createUpdate("DELETE FROM sessions WHERE namespace = :ns AND session = :s AND next_idx = 0")
        .bind("ns", ns).bind("s", session).execute();
  }

  int nextIndex(Handle h, String ns, String session) {
    return h.createQuery("SELECT COALESCE(MAX(next_idx), 0) FROM sessions WHERE namespace = :ns AND session = :s")
        .bind("ns", ns).bind("s", session).mapTo(Integer.class).one();
  }

  Optional<RawTurn> turn(Handle h, String ns, TurnRef ref) {
    return h.createQuery("SELECT " + COLUMNS + " FROM turns WHERE namespace = :ns AND session = :s AND idx = :i")
        .bind("ns", ns).bind("s", ref.session()).bind("i", ref.index()).map(TurnTable::map).findOne();
  }

  /**
   * The turns of refs, of any number of sessions, in no particular order: one statement per
   * {@value #IN_CHUNK} refs, however many sessions they span. Why: a recall reads the turns of
   * hits and windows spread over many sessions, and a statement per session cost a round trip
   * each (about 30 per recall on a LoCoMo conversation).
   */
  List<RawTurn> turns(Handle h, String ns, List<TurnRef> refs) {
    List<RawTurn> out = new ArrayList<>();
    for (int i = 0; i < refs.size(); i += IN_CHUNK) {
      List<TurnRef> chunk = refs.subList(i, Math.min(refs.size(), i + IN_CHUNK));
      h.createQuery("SELECT " + COLUMNS + " FROM turns WHERE namespace = :ns AND (session, idx) IN"
              + " (SELECT * FROM unnest(CAST(:s AS text[]), CAST(:idx AS integer[])))")
          .bind("ns", ns)
          .bindArray("s", String.class, chunk.stream().map(TurnRef::session).toList())
          .bindArray("idx", Integer.class, chunk.stream().map(TurnRef::index).toList())
          .map(TurnTable::map).forEach(out::add);
    }
    return out;
  }

  List<RawTurn> window(Handle h, String ns, String session, int from, int to) {
    return h.createQuery("SELECT " + COLUMNS + " FROM turns WHERE namespace = :ns AND session = :s"
            + " AND idx BETWEEN :from AND :to ORDER BY idx")
        .bind("ns", ns).bind("s", session).bind("from", from).bind("to", to).map(TurnTable::map).list();
  }

  List<String> sessions(Handle h, String ns) {
    return h.createQuery("SELECT session FROM sessions WHERE namespace = :ns ORDER BY seq")
        .bind("ns", ns).mapTo(String.class).list();
  }

  List<String> namespaces(Handle h) {
    return h.createQuery("SELECT DISTINCT namespace FROM sessions ORDER BY namespace").mapTo(String.class).list();
  }

  long count(Handle h, String ns) {
    return h.createQuery("SELECT COUNT(*) FROM turns WHERE namespace = :ns").bind("ns", ns).mapTo(Long.class).one();
  }

  List<ScoredId> search(Handle h, String ns, TextQuery q, int k) {
    String sql = "SELECT ('episode:' || session || ':' || idx) COLLATE \"C\" AS hit, ts_rank(tsv, q) AS score FROM turns, "
        + q.sql() + " WHERE namespace = :ns AND tsv @@ q ORDER BY score DESC, hit LIMIT :k";
    return q.bind(h.createQuery(sql)).bind("ns", ns).bind("k", k)
        .map((rs, ctx) -> new ScoredId(rs.getString("hit"), TextQuery.score(rs, "score"))).list();
  }

  /** {@link #search} of several queries in one statement (see {@link TextQuery#searchAll}). */
  List<List<ScoredId>> searchAll(Handle h, String ns, List<TextQuery> queries, int k) {
    return TextQuery.searchAll(h, "turns", "'episode:' || session || ':' || idx", ns, queries, k);
  }

  /** Where a namespace's turns stand (migration 3): the epoch of its last deletion and its last change. */
  record Head(long epoch, long seq) {}

  /** The namespace's turn head, or null when it never held a turn. */
  static Head head(Handle h, String ns) {
    return h.createQuery("SELECT epoch, seq FROM turn_heads WHERE namespace = :ns")
        .bind("ns", ns).map((rs, ctx) -> new Head(rs.getLong(1), rs.getLong(2))).findOne().orElse(null);
  }

  /**
   * Feeds {@code into} the hit id and {@code tsv} text of the namespace's turns numbered in
   * {@code (after, upTo]}, or of all its turns when {@code after} is negative.
   */
  static void texts(Handle h, String ns, long after, long upTo, BiConsumer<String, String> into) {
    String sql = "SELECT 'episode:' || session || ':' || idx, tsv::text FROM turns WHERE namespace = :ns"
        + (after < 0 ? "" : " AND seq > :after AND seq <= :upTo");
    Query q = h.createQuery(sql).bind("ns", ns).setFetchSize(2000);
    if (after >= 0) {
      q.bind("after", after).bind("upTo", upTo);
    }
    q.map((rs, ctx) -> Map.entry(rs.getString(1), rs.getString(2))).forEach(e -> into.accept(e.getKey(), e.getValue()));
  }

  /**
   * As {@link #texts}, with each turn's columns as well ({@code into} gets the hit id, the
   * {@code tsv} text and the turn), for a copy that answers reads by ref as well as searches.
   */
  static void rows(Handle h, String ns, long after, long upTo, TurnRowSink into) {
    String sql = "SELECT 'episode:' || session || ':' || idx AS hit, tsv::text AS tsv, " + COLUMNS
        + " FROM turns WHERE namespace = :ns" + (after < 0 ? "" : " AND seq > :after AND seq <= :upTo");
    Query q = h.createQuery(sql).bind("ns", ns).setFetchSize(2000);
    if (after >= 0) {
      q.bind("after", after).bind("upTo", upTo);
    }
    q.map((rs, ctx) -> {
      into.accept(rs.getString("hit"), rs.getString("tsv"), map(rs, ctx));
      return Boolean.TRUE;
    }).forEach(done -> {});
  }

  /** Receives what {@link #rows} reads of one turn. */
  @FunctionalInterface
  interface TurnRowSink {
    void accept(String hit, String tsv, RawTurn turn);
  }

  /** Removes the namespace's turns (session null) or one session's; returns the removed ids. */
  List<String> delete(Handle h, String ns, String session) {
    // sessions first: an append locks its session's row and then (by the stamping trigger) the
    // namespace's turn head, and deleting turns moves that head, so the same order here means a
    // forget and an append never wait on each other in a cycle
    Scope.bind(h.createUpdate("DELETE FROM sessions WHERE " + Scope.where(session)), ns, session).execute();
    List<String> ids = Scope.bind(h.createQuery("DELETE FROM turns WHERE " + Scope.where(session)
            + " RETURNING session, idx"), ns, session)
        .map((rs, ctx) -> new TurnRef(rs.getString(1), rs.getInt(2))).list()
        .stream().sorted().map(TurnRef::id).toList();
    Scope.bind(h.createUpdate("DELETE FROM turn_appends WHERE " + Scope.where(session)), ns, session).execute();
    return ids;
  }
}
