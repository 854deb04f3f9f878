package dev.lychee.store.postgres;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.core.store.JsonColumns;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Table {@code nodes}: evidence nodes, merged under a row lock when a stored id is put again ({@link #rows}).
 *
 * <p>A node's record ids are stored in two columns (migration 8): {@code record_ids_base}, a JSON
 * list, and {@code record_ids_tail}, the JSON list of the ids appended since the base was last
 * written; the node's list is the base followed by the tail. A merge only appends ids
 * ({@link EvidenceNode#mergedWith}), so its rewrite keeps the stored base, out of line in TOAST,
 * as it is and writes the grown tail, until the tail would pass {@link #TAIL_CHARS}; then the
 * whole list becomes the new base and the tail is empty again ({@link #KEEPING_THE_BASE}). Why
 * (round twenty-four, docs/measurements.md §6): every segment rewrote the speakers' and frequent
 * tags' nodes whole, their lists of 17 to 33 KB among them, so each list was stored again, chunk
 * by chunk, at every merge: the largest server cost of a PostgreSQL ingest.
 */
final class NodeTable {
  static final String COLUMNS = "namespace, id, kind, key, label, search_text, record_ids_base, record_ids_tail,"
      + " sessions, entities, tags, span_start, span_end, has_span, turn_ranges";
  private static final String VALUES = ":namespace, :id, :kind, :key, :label, :search_text, :record_ids_base,"
      + " :record_ids_tail, :sessions, :entities, :tags, :span_start, :span_end, :has_span, :turn_ranges";

  /**
   * The most characters of ids a rewrite lets the tail hold before it writes the whole list as the
   * new base. Each merge rewrites the tail (up to this much) and, once the tail would pass it, the
   * base (the whole list); for a list of L characters growing by g a merge, that is about
   * TAIL_CHARS / 2 + g L / TAIL_CHARS a merge, least near the square root of 2 g L: 4 to 6 K for
   * the lists of 17 to 33 K growing by about 500 a segment in a LoCoMo ingest (round twenty-four,
   * docs/measurements.md §6).
   */
  static final int TAIL_CHARS = 4096;

  private static final String EMPTY = "[]";

  /**
   * A merged node over its stored row: the base kept as stored ({@code :record_ids_base} NULL),
   * which keeps its TOAST value without writing it again, and the ids after it as the tail; or the
   * whole list as the new base and an empty tail, as an insert writes it. The stored base's text
   * comes from the locking read, so the server reads nothing more for the choice.
   */
  static final MergingRows.Rewriter<EvidenceNode> KEEPING_THE_BASE = new MergingRows.Rewriter<>() {
    @Override
    public String values() {
      return VALUES.replace(":record_ids_base,", "COALESCE(:record_ids_base, t.record_ids_base),");
    }

    @Override
    public String stored(ResultSet rs) throws SQLException {
      return rs.getString("record_ids_base");
    }

    @Override
    public void bind(Params p, EvidenceNode merged, String storedBase) {
      String list = JsonColumns.strings(merged.recordIds());
      String tail = tailAfter(storedBase, list);
      NodeTable.bind(p, merged, tail == null ? list : null, tail == null ? EMPTY : tail);
    }
  };

  /**
   * The JSON list of the ids of {@code list} after those of {@code base} when {@code list} starts
   * with them, {@code base} is not empty and the rest fits {@link #TAIL_CHARS}; otherwise null. Both
   * are JSON lists of strings as {@link JsonColumns#strings(List)} writes them, so the text of a
   * list that starts with the base's ids starts with the base's text without its closing bracket,
   * followed by a comma.
   */
  static String tailAfter(String base, String list) {
    if (base == null || base.equals(EMPTY) || list.length() - base.length() > TAIL_CHARS
        || list.length() <= base.length() || list.charAt(base.length() - 1) != ','
        || !list.startsWith(base.substring(0, base.length() - 1))) {
      return null;
    }
    return "[" + list.substring(base.length());
  }

  static EvidenceNode map(ResultSet rs, StatementContext ctx) throws SQLException {
    DateRange span = rs.getBoolean("has_span")
        ? new DateRange(Columns.day(rs, "span_start"), Columns.day(rs, "span_end")) : null;
    return new EvidenceNode(rs.getString("id"), rs.getString("namespace"), NodeKind.valueOf(rs.getString("kind")),
        Columns.untext(rs.getString("key")), Columns.untext(rs.getString("label")),
        Columns.untext(rs.getString("search_text")), recordIds(rs),
        JsonColumns.strings(rs.getString("sessions")), JsonColumns.strings(rs.getString("entities")),
        JsonColumns.strings(rs.getString("tags")), span, JsonColumns.turnRanges(rs.getString("turn_ranges")));
  }

  /** A node's record ids: the stored base, then the tail. */
  static List<String> recordIds(ResultSet rs) throws SQLException {
    List<String> base = JsonColumns.strings(rs.getString("record_ids_base"));
    String tail = rs.getString("record_ids_tail");
    if (EMPTY.equals(tail)) {
      return base;
    }
    List<String> all = new ArrayList<>(base);
    all.addAll(JsonColumns.strings(tail));
    return all;
  }

  /** Binds a node whole: its list as the base, an empty tail. */
  private static void bindAll(Params st, EvidenceNode n) {
    bind(st, n, JsonColumns.strings(n.recordIds()), EMPTY);
  }

  /** Binds a node with its record ids as the given base ({@code null}: the stored one kept) and tail. */
  private static void bind(Params st, EvidenceNode n, String base, String tail) {
    DateRange span = n.span();
    st.bind("namespace", n.namespace()).bind("id", n.id()).bind("kind", n.kind().name())
        .bind("key", Columns.text(n.key())).bind("label", Columns.text(n.label()))
        .bind("search_text", Columns.text(n.searchText())).bind("record_ids_base", base).bind("record_ids_tail", tail)
        .bind("sessions", JsonColumns.strings(n.sessions())).bind("entities", JsonColumns.strings(n.entities()))
        .bind("tags", JsonColumns.strings(n.tags())).day("span_start", span == null ? null : span.start())
        .day("span_end", span == null ? null : span.end()).bind("has_span", span != null)
        .bind("turn_ranges", JsonColumns.turnRanges(n.turnRanges()));
  }

  /** Insert-or-merge, look-ups by id and deletes: the shape nodes share with records. */
  final MergingRows<EvidenceNode> rows = new MergingRows<>("nodes", COLUMNS, VALUES, KEEPING_THE_BASE, null,
      null, NodeTable::map, NodeTable::bindAll, EvidenceNode::namespace, EvidenceNode::id, EvidenceNode::mergedWith);

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
