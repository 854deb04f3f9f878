package dev.lychee.store.postgres;

import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ScoredId;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.core.store.JsonColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Table {@code records}: memory records with list columns as JSON, the resolved span as dates, and
 * a tsvector over type, text, entities and tags. Putting a stored id merges it under a row lock, so
 * writers of any instance merge provenance without losing each other's evidence.
 */
final class RecordTable {
  static final String COLUMNS = "namespace, id, type, text, entities, tags, t_ref, t_valid_from, t_valid_to,"
      + " span_start, span_end, has_span, unparsed, evidence, session, segment_id, source_role, created_at";
  private static final String VALUES = ":namespace, :id, :type, :text, :entities, :tags, :t_ref, :t_valid_from,"
      + " :t_valid_to, :span_start, :span_end, :has_span, :unparsed, :evidence, :session, :segment_id, :source_role,"
      + " :created_at";

  static MemoryRecord map(ResultSet rs, StatementContext ctx) throws SQLException {
    DateRange span = rs.getBoolean("has_span")
        ? new DateRange(Columns.day(rs, "span_start"), Columns.day(rs, "span_end")) : null;
    TemporalScope temporal = new TemporalScope(Columns.untext(rs.getString("t_ref")),
        Columns.untext(rs.getString("t_valid_from")), Columns.untext(rs.getString("t_valid_to")), span,
        rs.getBoolean("unparsed"));
    return new MemoryRecord(rs.getString("id"), rs.getString("namespace"), MemoryType.valueOf(rs.getString("type")),
        Columns.untext(rs.getString("text")), JsonColumns.strings(rs.getString("entities")),
        JsonColumns.strings(rs.getString("tags")), temporal, JsonColumns.turnRefs(rs.getString("evidence")),
        rs.getString("session"), rs.getString("segment_id"), SourceRole.valueOf(rs.getString("source_role")),
        Columns.time(rs, "created_at"));
  }

  /** What lexical record search runs over: type, text, entities and tags. */
  private static String searchText(MemoryRecord r) {
    return r.type().wireName() + " " + r.text() + " " + String.join(" ", r.entities()) + " "
        + String.join(" ", r.tags());
  }

  private static void bindAll(Params st, MemoryRecord r) {
    DateRange span = r.temporal().span();
    st.bind("namespace", r.namespace()).bind("id", r.id()).bind("type", r.type().name())
        .bind("text", Columns.text(r.text())).bind("entities", JsonColumns.strings(r.entities()))
        .bind("tags", JsonColumns.strings(r.tags())).bind("t_ref", Columns.text(r.temporal().tRef()))
        .bind("t_valid_from", Columns.text(r.temporal().tValidFrom()))
        .bind("t_valid_to", Columns.text(r.temporal().tValidTo()))
        .day("span_start", span == null ? null : span.start())
        .day("span_end", span == null ? null : span.end())
        .bind("has_span", span != null).bind("unparsed", r.temporal().unparsed())
        .bind("evidence", JsonColumns.turnRefs(r.evidence())).bind("session", r.session())
        .bind("segment_id", r.segmentId()).bind("source_role", r.sourceRole().name())
        .time("created_at", r.createdAt()).bind("doc", TextQuery.document(searchText(r)));
  }

  /** Insert-or-merge, look-ups by id and deletes: the shape records share with nodes. */
  final MergingRows<MemoryRecord> rows = new MergingRows<>("records", COLUMNS, VALUES, null, "tsv",
      "to_tsvector('simple', :doc)", RecordTable::map, RecordTable::bindAll, MemoryRecord::namespace, MemoryRecord::id,
      MemoryRecord::mergedWith);

  List<ScoredId> search(Handle h, String ns, TextQuery q, int k) {
    String sql = "SELECT id COLLATE \"C\" AS hit, ts_rank(tsv, q) AS score FROM records, " + q.sql()
        + " WHERE namespace = :ns AND tsv @@ q ORDER BY score DESC, hit LIMIT :k";
    return q.bind(h.createQuery(sql)).bind("ns", ns).bind("k", k)
        .map((rs, ctx) -> new ScoredId(rs.getString("hit"), TextQuery.score(rs, "score"))).list();
  }

  /** A record with its stored {@code tsv} in PostgreSQL's text form, as {@link LocalRows} reads it. */
  record Indexed(MemoryRecord record, String tsv) {}

  /**
   * {@link MergingRows#changed} of records with each one's {@code tsv} text, for the postings of
   * the records' search kept beside the local rows ({@link TextPostings}, round nineteen).
   */
  List<Indexed> changedWithText(Handle h, String ns, long after, long upTo) {
    return rows.changed(h, ns, after, upTo, ", tsv::text AS tsv_text",
        (rs, ctx) -> new Indexed(map(rs, ctx), rs.getString("tsv_text")));
  }

  /** {@link #search} of several queries in one statement (see {@link TextQuery#searchAll}). */
  List<List<ScoredId>> searchAll(Handle h, String ns, List<TextQuery> queries, int k) {
    return TextQuery.searchAll(h, "records", "id", ns, queries, k);
  }
}
