package dev.lychee.store.postgres;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.SegmentOverlap;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Table {@code segments}: closed segments with their turns (JSON), state, last error, a durable
 * attempt count and the claim an instance may hold on it (see {@link PostgresSegmentClaims}).
 */
final class SegmentTable {
  static final String COLUMNS =
      "namespace, id, session, first_idx, last_idx, state, error, exchanges, tokens, reason, score, probability, turns";

  static StoredSegment map(ResultSet rs, StatementContext ctx) throws SQLException {
    String ns = rs.getString("namespace");
    String session = rs.getString("session");
    Segment s = new Segment(ns, session, JsonColumns.segmentTurns(ns, session, rs.getString("turns")),
        rs.getInt("exchanges"), rs.getInt("tokens"), CloseReason.valueOf(rs.getString("reason")),
        nanIfNull(rs, "score"), nanIfNull(rs, "probability"));
    return new StoredSegment(s, SegmentState.valueOf(rs.getString("state")), Columns.untext(rs.getString("error")));
  }

  private static double nanIfNull(ResultSet rs, String column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() ? Double.NaN : v;
  }

  private static Double nullIfNan(double v) {
    return Double.isNaN(v) ? null : v;
  }

  /**
   * {@link #put}'s common case in one statement, for a run in autocommit ({@link
   * PostgresDatabase#writeStatement}): the function of migration 5 takes the session's row lock and
   * stores the segment when no stored segment of the session has a first-to-last range meeting
   * its own; the lock, the read, the insert and the commit were four round trips, one after another
   * on the encoder's thread (round twenty, docs/measurements.md §6). The commit waits for the WAL
   * flush as before.
   *
   * @return true when the segment was stored; false, with nothing stored, when a stored segment's
   *     range meets its own: then {@link #put} decides by the turns themselves
   */
  boolean putAlone(Handle h, Segment s, SegmentState state) {
    return h.createQuery("SELECT segment_put(:ns, :s, :id, :first, :last, :state, :exchanges, :tokens, :reason,"
            + " CAST(:score AS double precision), CAST(:probability AS double precision), :turns)")
        .bind("ns", s.namespace()).bind("id", s.id()).bind("s", s.session()).bind("first", s.firstIndex())
        .bind("last", s.lastIndex()).bind("state", state.name()).bind("exchanges", s.exchanges())
        .bind("tokens", s.tokens()).bind("reason", s.reason().name()).bind("score", nullIfNan(s.score()))
        .bind("probability", nullIfNan(s.probability())).bind("turns", JsonColumns.segmentTurns(s.turns()))
        .mapTo(Boolean.class).one();
  }

  /**
   * Stores the segment unless a stored one of its session shares a turn ({@link SegmentOverlap}),
   * checked under the session's row lock, which every append and segment put of the session takes:
   * of two instances closing overlapping segments at once, the second sees the first's row.
   */
  boolean put(Handle h, Segment s, SegmentState state) {
    int next = TurnTable.lockSession(h, s.namespace(), s.session());
    List<Segment> meeting = h.createQuery("SELECT " + COLUMNS + " FROM segments WHERE namespace = :ns AND session = :s"
            + " AND first_idx <= :last AND last_idx >= :first")
        .bind("ns", s.namespace()).bind("s", s.session()).bind("first", s.firstIndex()).bind("last", s.lastIndex())
        .map(SegmentTable::map).map(StoredSegment::segment).list();
    boolean overlaps = SegmentOverlap.sharesTurn(s, meeting);
    if (!overlaps) {
      h.createUpdate("INSERT INTO segments(" + COLUMNS + ") VALUES (:ns, :id, :s, :first, :last, :state, NULL,"
              + " :exchanges, :tokens, :reason, :score, :probability, :turns)")
          .bind("ns", s.namespace()).bind("id", s.id()).bind("s", s.session()).bind("first", s.firstIndex())
          .bind("last", s.lastIndex()).bind("state", state.name()).bind("exchanges", s.exchanges())
          .bind("tokens", s.tokens()).bind("reason", s.reason().name()).bind("score", nullIfNan(s.score()))
          .bind("probability", nullIfNan(s.probability())).bind("turns", JsonColumns.segmentTurns(s.turns())).execute();
    }
    if (next == 0) {
      // the row lockSession created for a session without turns; a session with turns keeps its
      // row, and this put holds the row's lock, so nothing to delete: one round trip less while the
      // session's appends wait for that lock (docs/defaults.md §3.3)
      TurnTable.dropIfEmpty(h, s.namespace(), s.session());
    }
    return !overlaps;
  }

  /**
   * Sets state and error; leaving PENDING (or entering it anew) drops any claim.
   *
   * @throws IllegalArgumentException if no such segment is stored
   */
  void setState(Handle h, String ns, String id, SegmentState state, String error) {
    int n = h.createUpdate("UPDATE segments SET state = :state, error = :error, claimed_by = NULL, claim_expires = NULL"
            + " WHERE namespace = :ns AND id = :id")
        .bind("state", state.name()).bind("error", Columns.text(error)).bind("ns", ns).bind("id", id).execute();
    if (n == 0) {
      throw new IllegalArgumentException("no segment '" + id + "' in namespace '" + ns + "'");
    }
  }

  List<StoredSegment> list(Handle h, String ns) {
    return h.createQuery("SELECT " + COLUMNS + " FROM segments WHERE namespace = :ns ORDER BY session, first_idx, last_idx")
        .bind("ns", ns).map(SegmentTable::map).list();
  }

  /**
   * The namespace's segments not encoded yet, in {@link #list}'s order. The predicate is the one of
   * migration 2's partial index {@code segments_unencoded_by_session} (namespace, session,
   * first_idx, last_idx WHERE state <> 'ENCODED'), which also gives the order: the rows read are the
   * pending ones, however many are ENCODED (review C F8, {@code PendingReadPlanTest}).
   */
  static final String PENDING_QUERY = "SELECT " + COLUMNS + " FROM segments WHERE namespace = :ns"
      + " AND state <> 'ENCODED' ORDER BY session, first_idx, last_idx";
  /** The namespaces with a segment not encoded yet, from migration 2's {@code segments_unencoded} (namespace, seq). */
  static final String PENDING_NAMESPACES_QUERY = "SELECT DISTINCT namespace FROM segments WHERE state <> 'ENCODED'";

  List<StoredSegment> pending(Handle h, String ns) {
    return h.createQuery(PENDING_QUERY).bind("ns", ns).map(SegmentTable::map).list();
  }

  List<String> pendingNamespaces(Handle h) {
    return h.createQuery(PENDING_NAMESPACES_QUERY).mapTo(String.class).list();
  }

  int segmentedThrough(Handle h, String ns, String session) {
    return h.createQuery("SELECT COALESCE(MAX(last_idx), -1) FROM segments WHERE namespace = :ns AND session = :s")
        .bind("ns", ns).bind("s", session).mapTo(Integer.class).one();
  }

  /** How often encoding of the segment was started through a claim (0 for an unknown segment). */
  int attempts(Handle h, String ns, String id) {
    return h.createQuery("SELECT COALESCE(MAX(attempts), 0) FROM segments WHERE namespace = :ns AND id = :id")
        .bind("ns", ns).bind("id", id).mapTo(Integer.class).one();
  }

  void delete(Handle h, String ns, String session) {
    Scope.bind(h.createUpdate("DELETE FROM segments WHERE " + Scope.where(session)), ns, session).execute();
  }
}
