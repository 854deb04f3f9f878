package dev.lychee.store.postgres;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.core.store.JsonColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.SqlStatement;
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

  private static void bindAll(SqlStatement<?> st, EvidenceNode n) {
    DateRange span = n.span();
    st.bind("namespace", n.namespace()).bind("id", n.id()).bind("kind", n.kind().name())
        .bind("key", Columns.text(n.key())).bind("label", Columns.text(n.label()))
        .bind("search_text", Columns.text(n.searchText())).bind("record_ids", JsonColumns.strings(n.recordIds()))
        .bind("sessions", JsonColumns.strings(n.sessions())).bind("entities", JsonColumns.strings(n.entities()))
        .bind("tags", JsonColumns.strings(n.tags())).bind("span_start", Columns.day(span == null ? null : span.start()))
        .bind("span_end", Columns.day(span == null ? null : span.end())).bind("has_span", span != null)
        .bind("turn_ranges", JsonColumns.turnRanges(n.turnRanges()));
  }

  /** Insert-or-merge, look-ups by id and deletes: the shape nodes share with records. */
  final MergingRows<EvidenceNode> rows = new MergingRows<>("nodes", COLUMNS, VALUES, null, null, NodeTable::map,
      NodeTable::bindAll, EvidenceNode::namespace, EvidenceNode::id, EvidenceNode::mergedWith);

  /**
   * Of each node with one of {@code ids}, its first {@code perNode} record ids, and the stored
   * records of all of them, in one statement: a union whose node rows carry {@code node} and
   * {@code links} and whose record rows carry the record columns. {@code record_ids} is a JSON array
   * of strings (JsonColumns), so the server cuts it as Java would and sends only what recall
   * follows; one statement also reads nodes and records in one snapshot. The records are looked up
   * with {@code id = ANY(ARRAY(...))}, not {@code IN (subquery)}: the planner then keeps the primary
   * key's index scan of the two-statement read instead of hashing a scan of the namespace.
   */
  LinkedRecords linkedRecords(Handle h, String ns, List<String> ids, int perNode) {
    String nulls = String.join(", ", Collections.nCopies(RecordTable.COLUMNS.split(",").length, "NULL"));
    String sql = "WITH linked AS MATERIALIZED ("
        + " SELECT n.id, ARRAY(SELECT e.rid FROM jsonb_array_elements_text(n.record_ids::jsonb) WITH ORDINALITY"
        + " AS e(rid, pos) WHERE e.pos <= :per ORDER BY e.pos) AS links"
        + " FROM nodes n WHERE n.namespace = :ns AND n.id = ANY(:ids))"
        + " SELECT NULL AS node, NULL::text[] AS links, " + RecordTable.COLUMNS + " FROM records"
        + " WHERE namespace = :ns AND id = ANY(ARRAY(SELECT unnest(links) FROM linked))"
        + " UNION ALL SELECT id, links, " + nulls + " FROM linked";
    Map<String, List<String>> links = new HashMap<>();
    Map<String, MemoryRecord> found = new HashMap<>();
    h.createQuery(sql).bind("ns", ns).bindArray("ids", String.class, ids).bind("per", perNode)
        .map((rs, ctx) -> {
          String node = rs.getString("node");
          if (node != null) {
            links.put(node, Arrays.asList((String[]) rs.getArray("links").getArray()));
          } else {
            MemoryRecord r = RecordTable.map(rs, ctx);
            found.put(r.id(), r);
          }
          return node;
        }).forEach(x -> { });
    // the order LinkedRecords promises: nodes as asked, records by their ids' first link
    Map<String, List<String>> ordered = new LinkedHashMap<>();
    Map<String, MemoryRecord> records = new LinkedHashMap<>();
    for (String id : ids) {
      List<String> l = links.get(id);
      if (l != null && !ordered.containsKey(id)) {
        ordered.put(id, l);
        for (String rid : l) {
          MemoryRecord r = found.get(rid);
          if (r != null) {
            records.putIfAbsent(rid, r);
          }
        }
      }
    }
    return new LinkedRecords(ordered, List.copyOf(records.values()));
  }

  List<EvidenceNode> byKind(Handle h, String ns, NodeKind kind) {
    return h.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE namespace = :ns AND kind = :kind ORDER BY key, id")
        .bind("ns", ns).bind("kind", kind.name()).map(NodeTable::map).list();
  }
}
