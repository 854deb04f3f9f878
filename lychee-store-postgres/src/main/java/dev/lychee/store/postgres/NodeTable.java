package dev.lychee.store.postgres;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.core.store.JsonColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** Table {@code nodes}: evidence nodes, merged under a row lock when a stored id is put again. */
final class NodeTable {
  static final String COLUMNS = "namespace, id, kind, key, label, search_text, record_ids, sessions, entities, tags,"
      + " span_start, span_end, has_span, turn_ranges";
  private static final String VALUES = ":namespace, :id, :kind, :key, :label, :search_text, :record_ids, :sessions,"
      + " :entities, :tags, :span_start, :span_end, :has_span, :turn_ranges";
  private static final int IN_CHUNK = 1000;

  static EvidenceNode map(ResultSet rs, StatementContext ctx) throws SQLException {
    DateRange span = rs.getBoolean("has_span")
        ? new DateRange(Columns.day(rs, "span_start"), Columns.day(rs, "span_end")) : null;
    return new EvidenceNode(rs.getString("id"), rs.getString("namespace"), NodeKind.valueOf(rs.getString("kind")),
        Columns.untext(rs.getString("key")), Columns.untext(rs.getString("label")),
        Columns.untext(rs.getString("search_text")), JsonColumns.strings(rs.getString("record_ids")),
        JsonColumns.strings(rs.getString("sessions")), JsonColumns.strings(rs.getString("entities")),
        JsonColumns.strings(rs.getString("tags")), span, JsonColumns.turnRanges(rs.getString("turn_ranges")));
  }

  private static <S extends org.jdbi.v3.core.statement.SqlStatement<S>> S bindAll(S st, EvidenceNode n) {
    DateRange span = n.span();
    return st.bind("namespace", n.namespace()).bind("id", n.id()).bind("kind", n.kind().name())
        .bind("key", Columns.text(n.key())).bind("label", Columns.text(n.label()))
        .bind("search_text", Columns.text(n.searchText())).bind("record_ids", JsonColumns.strings(n.recordIds()))
        .bind("sessions", JsonColumns.strings(n.sessions())).bind("entities", JsonColumns.strings(n.entities()))
        .bind("tags", JsonColumns.strings(n.tags())).bind("span_start", Columns.day(span == null ? null : span.start()))
        .bind("span_end", Columns.day(span == null ? null : span.end())).bind("has_span", span != null)
        .bind("turn_ranges", JsonColumns.turnRanges(n.turnRanges()));
  }

  /** Inserts a node, or merges it into the stored one with the same id. */
  void put(Handle h, EvidenceNode n) {
    int inserted = bindAll(h.createUpdate("INSERT INTO nodes(" + COLUMNS + ") VALUES (" + VALUES
        + ") ON CONFLICT (namespace, id) DO NOTHING"), n).execute();
    if (inserted == 1) {
      return;
    }
    EvidenceNode old = h.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE namespace = :ns AND id = :id FOR UPDATE")
        .bind("ns", n.namespace()).bind("id", n.id()).map(NodeTable::map).one();
    EvidenceNode merged = old.mergedWith(n);
    if (!merged.equals(old)) {
      rewrite(h, merged);
    }
  }

  void rewrite(Handle h, EvidenceNode n) {
    bindAll(h.createUpdate("UPDATE nodes SET (" + COLUMNS + ") = (" + VALUES
        + ") WHERE namespace = :namespace AND id = :id"), n).execute();
  }

  List<EvidenceNode> byIds(Handle h, String ns, List<String> ids) {
    List<EvidenceNode> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += IN_CHUNK) {
      h.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE namespace = :ns AND id = ANY(:ids)")
          .bind("ns", ns).bindArray("ids", String.class, ids.subList(i, Math.min(ids.size(), i + IN_CHUNK)))
          .map(NodeTable::map).forEach(out::add);
    }
    return out;
  }

  List<EvidenceNode> byKind(Handle h, String ns, NodeKind kind) {
    return h.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE namespace = :ns AND kind = :kind ORDER BY key, id")
        .bind("ns", ns).bind("kind", kind.name()).map(NodeTable::map).list();
  }

  List<String> ids(Handle h, String ns) {
    return h.createQuery("SELECT id FROM nodes WHERE namespace = :ns ORDER BY seq").bind("ns", ns)
        .mapTo(String.class).list();
  }

  List<EvidenceNode> allForUpdate(Handle h, String ns) {
    return h.createQuery("SELECT " + COLUMNS + " FROM nodes WHERE namespace = :ns ORDER BY seq FOR UPDATE")
        .bind("ns", ns).map(NodeTable::map).list();
  }

  void delete(Handle h, String ns, Collection<String> ids) {
    List<String> all = List.copyOf(ids);
    for (int i = 0; i < all.size(); i += IN_CHUNK) {
      h.createUpdate("DELETE FROM nodes WHERE namespace = :ns AND id = ANY(:ids)").bind("ns", ns)
          .bindArray("ids", String.class, all.subList(i, Math.min(all.size(), i + IN_CHUNK))).execute();
    }
  }

  void deleteAll(Handle h, String ns) {
    h.createUpdate("DELETE FROM nodes WHERE namespace = :ns").bind("ns", ns).execute();
  }
}
