package dev.lychee.store.sqlite;

import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.SourceRole;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.core.store.JsonColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jdbi.v3.core.statement.StatementContext;

/** Row mappers and column lists of the store's tables; one place that knows both directions. */
final class Rows {
  private Rows() {}

  static final String TURN_COLUMNS = "namespace, session, idx, role, speaker, text, time";

  static RawTurn turn(ResultSet rs, StatementContext ctx) throws SQLException {
    return new RawTurn(rs.getString("namespace"), new TurnRef(rs.getString("session"), rs.getInt("idx")),
        Role.parse(rs.getString("role")), rs.getString("speaker"), rs.getString("text"),
        ColumnCodec.dateTime(rs.getString("time")));
  }

  static final String SEGMENT_COLUMNS =
      "namespace, id, session, first_idx, last_idx, state, error, exchanges, tokens, reason, score, probability, turns";

  static StoredSegment segment(ResultSet rs, StatementContext ctx) throws SQLException {
    String ns = rs.getString("namespace");
    String session = rs.getString("session");
    Segment s = new Segment(ns, session, JsonColumns.segmentTurns(ns, session, rs.getString("turns")),
        rs.getInt("exchanges"), rs.getInt("tokens"), CloseReason.valueOf(rs.getString("reason")),
        nanIfNull(rs, "score"), nanIfNull(rs, "probability"));
    return new StoredSegment(s, SegmentState.valueOf(rs.getString("state")), rs.getString("error"));
  }

  /** SQLite stores NaN as NULL, so NULL reads back as NaN. */
  private static double nanIfNull(ResultSet rs, String column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() ? Double.NaN : v;
  }

  static Double nullIfNan(double v) {
    return Double.isNaN(v) ? null : v;
  }

  static final String RECORD_COLUMNS = "seq, namespace, id, type, text, entities, tags, t_ref, t_valid_from, "
      + "t_valid_to, span_start, span_end, has_span, unparsed, evidence, session, segment_id, source_role, created_at";

  static MemoryRecord record(ResultSet rs, StatementContext ctx) throws SQLException {
    DateRange span = rs.getInt("has_span") == 1
        ? new DateRange(ColumnCodec.date(rs.getString("span_start")), ColumnCodec.date(rs.getString("span_end")))
        : null;
    TemporalScope temporal = new TemporalScope(rs.getString("t_ref"), rs.getString("t_valid_from"),
        rs.getString("t_valid_to"), span, rs.getInt("unparsed") == 1);
    return new MemoryRecord(rs.getString("id"), rs.getString("namespace"), MemoryType.valueOf(rs.getString("type")),
        rs.getString("text"), JsonColumns.strings(rs.getString("entities")), JsonColumns.strings(rs.getString("tags")),
        temporal, JsonColumns.turnRefs(rs.getString("evidence")), rs.getString("session"),
        rs.getString("segment_id"), SourceRole.valueOf(rs.getString("source_role")),
        ColumnCodec.dateTime(rs.getString("created_at")));
  }

  static final String NODE_COLUMNS = "seq, namespace, id, kind, key, label, search_text, record_ids, sessions, "
      + "entities, tags, span_start, span_end, has_span, turn_ranges";

  static EvidenceNode node(ResultSet rs, StatementContext ctx) throws SQLException {
    DateRange span = rs.getInt("has_span") == 1
        ? new DateRange(ColumnCodec.date(rs.getString("span_start")), ColumnCodec.date(rs.getString("span_end")))
        : null;
    return new EvidenceNode(rs.getString("id"), rs.getString("namespace"), NodeKind.valueOf(rs.getString("kind")),
        rs.getString("key"), rs.getString("label"), rs.getString("search_text"),
        JsonColumns.strings(rs.getString("record_ids")), JsonColumns.strings(rs.getString("sessions")),
        JsonColumns.strings(rs.getString("entities")), JsonColumns.strings(rs.getString("tags")), span,
        JsonColumns.turnRanges(rs.getString("turn_ranges")));
  }
}
