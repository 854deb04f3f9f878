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
  static final String COLUMNS = "namespace, id, kind, key, label, search_text_base, search_text_tail,"
      + " record_ids_base, record_ids_tail, sessions, entities, tags, span_start, span_end, has_span, turn_ranges";
  private static final String VALUES = ":namespace, :id, :kind, :key, :label, :search_text_base, :search_text_tail,"
      + " :record_ids_base, :record_ids_tail, :sessions, :entities, :tags, :span_start, :span_end, :has_span,"
      + " :turn_ranges";

  /**
   * The most characters of ids a rewrite lets the tail hold before it writes the whole list as the
   * new base. Each merge rewrites the tail (up to this much) and, once the tail would pass it, the
   * base (the whole list); for a list of L characters growing by g a merge, that is about
   * TAIL_CHARS / 2 + g L / TAIL_CHARS a merge, least near the square root of 2 g L: 4 to 6 K for
   * the lists of 17 to 33 K growing by about 500 a segment in a LoCoMo ingest (round twenty-four,
   * docs/measurements.md §6).
   */
  static final int TAIL_CHARS = 4096;

  /**
   * The most characters (as stored, {@link Columns#text}) a rewrite lets the search text's tail
   * hold before it writes the whole text as the new base. The text is at most 8,000 characters
   * ({@link EvidenceNode#MAX_SEARCH_TEXT_CHARS}) and a hot node's grows by several hundred to a
   * couple of thousand a segment, so a tail of up to 4,096 keeps the base through two to eight
   * merges (round twenty-five, docs/measurements.md §6).
   */
  static final int SEARCH_TAIL_CHARS = 4096;

  private static final String EMPTY = "[]";

  /**
   * A merged node over its stored row: the bases kept as stored ({@code :record_ids_base} and
   * {@code :search_text_base} NULL), which keeps their TOAST values without writing them again, and
   * what was appended after them as the tails; or the whole list or text as the new base and an
   * empty tail, as an insert writes it. The stored bases and tails come from the locking read, so
   * the server reads nothing more for the choice.
   */
  static final MergingRows.Rewriter<EvidenceNode> KEEPING_THE_BASE = new MergingRows.Rewriter<>() {
    @Override
    public String values() {
      return VALUES.replace(":record_ids_base,", "COALESCE(:record_ids_base, t.record_ids_base),")
          .replace(":search_text_base,", "COALESCE(:search_text_base, t.search_text_base),");
    }

    @Override
    public MergingRows.Rewriter.Over<EvidenceNode> over(ResultSet rs) throws SQLException {
      String storedIds = rs.getString("record_ids_base");
      String storedTextTail = rs.getString("search_text_tail");
      String storedText = searchText(rs);
      return (p, merged) -> {
        String list = JsonColumns.strings(merged.recordIds());
        String tail = tailAfter(storedIds, list);
        String textTail = searchTailAfter(storedTextTail, storedText, merged.searchText());
        NodeTable.bind(p, merged, tail == null ? list : null, tail == null ? EMPTY : tail,
            textTail == null ? Columns.text(merged.searchText()) : null, textTail == null ? "" : textTail);
      };
    }
  };

  /**
   * The search text's tail (as stored) that makes the stored base followed by it read as {@code
   * merged}, keeping the base, when the stored base and tail {@code storedTail} read as {@code old};
   * null when the whole text must be written as the new base. A node's text is the last {@link
   * EvidenceNode#MAX_SEARCH_TEXT_CHARS} characters of what its merges appended ({@link
   * EvidenceNode#mergedWith}), and the last n of (the last n of a) + b are the last n of a + b, so
   * appending to the tail what a merge appended to {@code old} gives the merged text ({@link
   * #searchText}). What was appended is found from the two texts ({@link #appended}). The whole
   * text is written when nothing fits: no appended text found, the tail would pass {@link
   * #SEARCH_TAIL_CHARS}, or the new piece or the merged text would begin with the second half of a
   * surrogate pair, which stored apart from its first half would not read back the same.
   */
  static String searchTailAfter(String storedTail, String old, String merged) {
    if (merged.equals(old)) {
      return storedTail;
    }
    if (merged.isEmpty()) {
      return null;
    }
    String appended = appended(old, merged);
    if (appended == null || Character.isLowSurrogate(merged.charAt(0))
        || Character.isLowSurrogate(appended.charAt(0))) {
      return null;
    }
    String tail = storedTail + Columns.text(appended);
    return tail.length() > SEARCH_TAIL_CHARS ? null : tail;
  }

  /** The most places {@link #appended} tries for where the old text's end lies in the merged one. */
  private static final int OVERLAP_TRIES = 64;

  /** How many of the old text's last characters {@link #appended} looks for in the merged text. */
  private static final int PROBE_CHARS = 32;

  /**
   * The shortest non-empty text {@code a} whose appending to {@code old}, cut to its last {@link
   * EvidenceNode#MAX_SEARCH_TEXT_CHARS} characters, gives {@code merged}; null when none is found.
   * Either {@code merged} starts with {@code old} (nothing was cut), or {@code merged} is cut: it
   * is a suffix of {@code old} followed by {@code a}, so the old text's end lies in it. The places
   * where the old text's last {@link #PROBE_CHARS} characters occur in {@code merged} are tried from
   * the last one back (at most {@link #OVERLAP_TRIES}), the first at which the start of {@code
   * merged} is a suffix of {@code old} giving the shortest {@code a}, which is checked by cutting
   * {@code old + a} as the merge does. A merge that kept fewer than {@link #PROBE_CHARS} characters
   * of {@code old} appended more than a tail holds, so it is not looked for.
   */
  static String appended(String old, String merged) {
    int max = EvidenceNode.MAX_SEARCH_TEXT_CHARS;
    if (merged.length() > old.length() && merged.startsWith(old)) {
      return merged.substring(old.length());
    }
    if (merged.length() != max || old.length() < PROBE_CHARS) {
      return null;
    }
    String probe = old.substring(old.length() - PROBE_CHARS);
    int from = max - 1 - PROBE_CHARS;
    for (int tries = 0; tries < OVERLAP_TRIES && from >= 0; tries++) {
      int at = merged.lastIndexOf(probe, from);
      if (at < 0) {
        return null;
      }
      int overlap = at + PROBE_CHARS;
      if (overlap <= old.length() && merged.regionMatches(0, old, old.length() - overlap, overlap)) {
        String a = merged.substring(overlap);
        String joined = old + a;
        return joined.substring(joined.length() - max).equals(merged) ? a : null;
      }
      from = at - 1;
    }
    return null;
  }

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
        searchText(rs), recordIds(rs),
        JsonColumns.strings(rs.getString("sessions")), JsonColumns.strings(rs.getString("entities")),
        JsonColumns.strings(rs.getString("tags")), span, JsonColumns.turnRanges(rs.getString("turn_ranges")));
  }

  /**
   * A node's search text: the stored base followed by the tail, cut to its last {@link
   * EvidenceNode#MAX_SEARCH_TEXT_CHARS} characters, as {@link EvidenceNode#mergedWith} cuts it.
   */
  static String searchText(ResultSet rs) throws SQLException {
    String base = Columns.untext(rs.getString("search_text_base"));
    String tail = rs.getString("search_text_tail");
    if (tail.isEmpty()) {
      return base;
    }
    String all = base + Columns.untext(tail);
    int max = EvidenceNode.MAX_SEARCH_TEXT_CHARS;
    return all.length() > max ? all.substring(all.length() - max) : all;
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

  /** Binds a node whole: its list and its text as the bases, empty tails. */
  private static void bindAll(Params st, EvidenceNode n) {
    bind(st, n, JsonColumns.strings(n.recordIds()), EMPTY, Columns.text(n.searchText()), "");
  }

  /**
   * Binds a node with its record ids as the given base ({@code null}: the stored one kept) and tail,
   * and its search text as the given base and tail, both as stored ({@code null} base: the stored
   * one kept).
   */
  private static void bind(Params st, EvidenceNode n, String base, String tail, String textBase, String textTail) {
    DateRange span = n.span();
    st.bind("namespace", n.namespace()).bind("id", n.id()).bind("kind", n.kind().name())
        .bind("key", Columns.text(n.key())).bind("label", Columns.text(n.label()))
        .bind("search_text_base", textBase).bind("search_text_tail", textTail)
        .bind("record_ids_base", base).bind("record_ids_tail", tail)
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
