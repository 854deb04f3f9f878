package dev.lychee.store.postgres;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.core.store.JsonColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** Table {@code nodes}: evidence nodes, merged under a row lock when a stored id is put again ({@link #rows}). */
final class NodeTable {
  static final String COLUMNS = "namespace, id, kind, key, label, search_text, record_ids, sessions, entities, tags,"
      + " span_start, span_end, has_span, turn_ranges";
  private static final String VALUES = ":namespace, :id, :kind, :key, :label, :search_text, :record_ids, :sessions,"
      + " :entities, :tags, :span_start, :span_end, :has_span, :turn_ranges";

  static EvidenceNode map(ResultSet rs, StatementContext ctx) throws SQLException {
    DateRange span = rs.getBoolean("has_span")
        ? new DateRange(Columns.day(rs, "span_start"), Columns.day(rs, "span_end")) : null;
    return new EvidenceNode(rs.getString("id"), rs.getString("namespace"), NodeKind.valueOf(rs.getString("kind")),
        Columns.untext(rs.getString("key")), Columns.untext(rs.getString("label")),
        Columns.untext(rs.getString("search_text")), JsonColumns.strings(rs.getString("record_ids")),
        JsonColumns.strings(rs.getString("sessions")), JsonColumns.strings(rs.getString("entities")),
        JsonColumns.strings(rs.getString("tags")), span, JsonColumns.turnRanges(rs.getString("turn_ranges")));
  }

  private static void bindAll(Params st, EvidenceNode n) {
    DateRange span = n.span();
    st.bind("namespace", n.namespace()).bind("id", n.id()).bind("kind", n.kind().name())
        .bind("key", Columns.text(n.key())).bind("label", Columns.text(n.label()))
        .bind("search_text", Columns.text(n.searchText())).bind("record_ids", JsonColumns.strings(n.recordIds()))
        .bind("sessions", JsonColumns.strings(n.sessions())).bind("entities", JsonColumns.strings(n.entities()))
        .bind("tags", JsonColumns.strings(n.tags())).day("span_start", span == null ? null : span.start())
        .day("span_end", span == null ? null : span.end()).bind("has_span", span != null)
        .bind("turn_ranges", JsonColumns.turnRanges(n.turnRanges()));
  }

  /** Insert-or-merge, look-ups by id and deletes: the shape nodes share with records. */
  final MergingRows<EvidenceNode> rows = new MergingRows<>("nodes", COLUMNS, VALUES, null, null, NodeTable::map,
      NodeTable::bindAll, EvidenceNode::namespace, EvidenceNode::id, EvidenceNode::mergedWith);

  /**
   * The nodes of one kind by key, then id, in byte order ({@code COLLATE "C"}, whatever the
   * database's collation), as {@link LocalRows.Copy#nodes(NodeKind)} orders them (round nineteen).
   */
  List<EvidenceNode> byKind(Handle h, String ns, NodeKind kind) {
    return h.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE namespace = :ns AND kind = :kind"
            + " ORDER BY key COLLATE \"C\", id COLLATE \"C\"")
        .bind("ns", ns).bind("kind", kind.name()).map(NodeTable::map).list();
  }
}
