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
import java.util.ArrayList;
import java.util.Collection;
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
  private static final int IN_CHUNK = 1000;

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

  private static <S extends org.jdbi.v3.core.statement.SqlStatement<S>> S bindAll(S st, MemoryRecord r) {
    DateRange span = r.temporal().span();
    return st.bind("namespace", r.namespace()).bind("id", r.id()).bind("type", r.type().name())
        .bind("text", Columns.text(r.text())).bind("entities", JsonColumns.strings(r.entities()))
        .bind("tags", JsonColumns.strings(r.tags())).bind("t_ref", Columns.text(r.temporal().tRef()))
        .bind("t_valid_from", Columns.text(r.temporal().tValidFrom()))
        .bind("t_valid_to", Columns.text(r.temporal().tValidTo()))
        .bind("span_start", Columns.day(span == null ? null : span.start()))
        .bind("span_end", Columns.day(span == null ? null : span.end()))
        .bind("has_span", span != null).bind("unparsed", r.temporal().unparsed())
        .bind("evidence", JsonColumns.turnRefs(r.evidence())).bind("session", r.session())
        .bind("segment_id", r.segmentId()).bind("source_role", r.sourceRole().name())
        .bind("created_at", Columns.time(r.createdAt())).bind("doc", TextQuery.document(searchText(r)));
  }

  /** Inserts a record, or merges it into the stored one with the same id. */
  void put(Handle h, MemoryRecord r) {
    int inserted = bindAll(h.createUpdate("INSERT INTO records(" + COLUMNS + ", tsv) VALUES (" + VALUES
        + ", to_tsvector('simple', :doc)) ON CONFLICT (namespace, id) DO NOTHING"), r).execute();
    if (inserted == 1) {
      return;
    }
    // another writer holds the id: merge under its row lock
    MemoryRecord old = h.createQuery("SELECT " + COLUMNS + " FROM records WHERE namespace = :ns AND id = :id FOR UPDATE")
        .bind("ns", r.namespace()).bind("id", r.id()).map(RecordTable::map).one();
    MemoryRecord merged = old.mergedWith(r);
    if (!merged.equals(old)) {
      rewrite(h, merged);
    }
  }

  /** Rewrites a stored record in place, keeping its insertion order. */
  void rewrite(Handle h, MemoryRecord r) {
    bindAll(h.createUpdate("UPDATE records SET (" + COLUMNS + ", tsv) = (" + VALUES
        + ", to_tsvector('simple', :doc)) WHERE namespace = :namespace AND id = :id"), r).execute();
  }

  List<MemoryRecord> byIds(Handle h, String ns, List<String> ids) {
    List<MemoryRecord> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += IN_CHUNK) {
      h.createQuery("SELECT " + COLUMNS + " FROM records WHERE namespace = :ns AND id = ANY(:ids)")
          .bind("ns", ns).bindArray("ids", String.class, ids.subList(i, Math.min(ids.size(), i + IN_CHUNK)))
          .map(RecordTable::map).forEach(out::add);
    }
    return out;
  }

  List<MemoryRecord> all(Handle h, String ns) {
    return h.createQuery("SELECT " + COLUMNS + " FROM records WHERE namespace = :ns ORDER BY seq")
        .bind("ns", ns).map(RecordTable::map).list();
  }

  List<ScoredId> search(Handle h, String ns, TextQuery q, int k) {
    String sql = "SELECT id AS hit, ts_rank(tsv, q) AS score FROM records, " + q.sql()
        + " WHERE namespace = :ns AND tsv @@ q ORDER BY score DESC, hit LIMIT :k";
    return q.bind(h.createQuery(sql)).bind("ns", ns).bind("k", k)
        .map((rs, ctx) -> new ScoredId(rs.getString("hit"), rs.getDouble("score"))).list();
  }

  /** Ids of the namespace's records in insertion order. */
  List<String> ids(Handle h, String ns) {
    return h.createQuery("SELECT id FROM records WHERE namespace = :ns ORDER BY seq").bind("ns", ns)
        .mapTo(String.class).list();
  }

  /** Records of the namespace whose row is locked for this transaction, in insertion order. */
  List<MemoryRecord> allForUpdate(Handle h, String ns) {
    return h.createQuery("SELECT " + COLUMNS + " FROM records WHERE namespace = :ns ORDER BY seq FOR UPDATE")
        .bind("ns", ns).map(RecordTable::map).list();
  }

  void delete(Handle h, String ns, Collection<String> ids) {
    List<String> all = List.copyOf(ids);
    for (int i = 0; i < all.size(); i += IN_CHUNK) {
      h.createUpdate("DELETE FROM records WHERE namespace = :ns AND id = ANY(:ids)").bind("ns", ns)
          .bindArray("ids", String.class, all.subList(i, Math.min(all.size(), i + IN_CHUNK))).execute();
    }
  }

  void deleteAll(Handle h, String ns) {
    h.createUpdate("DELETE FROM records WHERE namespace = :ns").bind("ns", ns).execute();
  }
}
