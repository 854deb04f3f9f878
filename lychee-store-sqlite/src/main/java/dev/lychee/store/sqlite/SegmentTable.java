package dev.lychee.store.sqlite;

import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.SegmentOverlap;
import java.util.List;
import org.jdbi.v3.core.Handle;

/** The {@code segments} table: closed segments with their encoding state and error text. */
final class SegmentTable {
  private final SqliteDatabase db;

  SegmentTable(SqliteDatabase db) {
    this.db = db;
  }

  /**
   * Stores the segment unless a stored one of its session shares a turn ({@link SegmentOverlap}),
   * checked inside the write transaction, which {@code BEGIN IMMEDIATE} makes the only writer of
   * the file (other processes included).
   */
  boolean put(Segment segment, SegmentState state) {
    return db.write(h -> {
      List<Segment> meeting = h.createQuery("SELECT " + Rows.SEGMENT_COLUMNS + " FROM segments"
              + " WHERE namespace = ? AND session = ? AND first_idx <= ? AND last_idx >= ?")
          .bind(0, segment.namespace()).bind(1, segment.session()).bind(2, segment.lastIndex())
          .bind(3, segment.firstIndex()).map(Rows::segment).map(StoredSegment::segment).list();
      boolean overlaps = SegmentOverlap.sharesTurn(segment, meeting);
      if (!overlaps) {
        h.createUpdate("INSERT INTO segments(" + Rows.SEGMENT_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)")
            .bind(0, segment.namespace()).bind(1, segment.id()).bind(2, segment.session())
            .bind(3, segment.firstIndex()).bind(4, segment.lastIndex()).bind(5, state.name())
            .bind(6, segment.exchanges()).bind(7, segment.tokens()).bind(8, segment.reason().name())
            .bind(9, Rows.nullIfNan(segment.score())).bind(10, Rows.nullIfNan(segment.probability()))
            .bind(11, JsonColumns.segmentTurns(segment.turns())).execute();
      }
      return !overlaps;
    });
  }

  void setState(String namespace, String segmentId, SegmentState state, String error) {
    db.write(h -> {
      setState(h, namespace, segmentId, state, error);
      return null;
    });
  }

  /**
   * Changes the state inside a caller's transaction.
   *
   * @throws IllegalArgumentException if no such segment is stored
   */
  static void setState(Handle h, String namespace, String segmentId, SegmentState state, String error) {
    int n = h.createUpdate("UPDATE segments SET state = ?, error = ? WHERE namespace = ? AND id = ?")
        .bind(0, state.name()).bind(1, error).bind(2, namespace).bind(3, segmentId).execute();
    if (n == 0) {
      throw new IllegalArgumentException("no segment '" + segmentId + "' in namespace '" + namespace + "'");
    }
  }

  List<StoredSegment> all(String namespace) {
    return db.read(h -> h.createQuery("SELECT " + Rows.SEGMENT_COLUMNS
            + " FROM segments WHERE namespace = ? ORDER BY session, first_idx, last_idx")
        .bind(0, namespace).map(Rows::segment).list());
  }

  /**
   * The namespace's segments not encoded yet, read through the partial index of schema V5
   * ({@code segments_unencoded}), whose predicate this query repeats word for word so that SQLite
   * can use it: the rows read are the pending ones, however many are ENCODED.
   */
  static final String PENDING_QUERY = "SELECT " + Rows.SEGMENT_COLUMNS + " FROM segments"
      + " WHERE namespace = ? AND state <> 'ENCODED' ORDER BY session, first_idx, last_idx";
  /** The namespaces with a segment not encoded yet, from the same index (it starts with the namespace). */
  static final String PENDING_NAMESPACES_QUERY = "SELECT DISTINCT namespace FROM segments WHERE state <> 'ENCODED'";

  List<StoredSegment> pending(String namespace) {
    return db.read(h -> h.createQuery(PENDING_QUERY).bind(0, namespace).map(Rows::segment).list());
  }

  List<String> pendingNamespaces() {
    return db.read(h -> h.createQuery(PENDING_NAMESPACES_QUERY).mapTo(String.class).list());
  }

  int segmentedThrough(String namespace, String session) {
    return db.read(h -> h.createQuery(
            "SELECT COALESCE(MAX(last_idx), -1) FROM segments WHERE namespace = ? AND session = ?")
        .bind(0, namespace).bind(1, session).mapTo(Integer.class).one());
  }

  static void deleteNamespace(Handle h, String namespace) {
    h.execute("DELETE FROM segments WHERE namespace = ?", namespace);
  }

  static void deleteSession(Handle h, String namespace, String session) {
    h.execute("DELETE FROM segments WHERE namespace = ? AND session = ?", namespace, session);
  }
}
