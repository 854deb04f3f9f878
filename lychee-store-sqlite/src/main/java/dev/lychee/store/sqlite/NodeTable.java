package dev.lychee.store.sqlite;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.MergeOnPut;
import dev.lychee.core.store.SessionPruning;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The {@code nodes} table: evidence nodes, merged by {@link MergeOnPut}, ordered by {@code seq}.
 * Every write stamps its rows with the namespace's node write count and every deletion counts
 * itself ({@link ChangeCounts#NODES}, schema V4), for the links kept in memory by {@link NodeLinks}.
 */
final class NodeTable {
  private static final String SELECT = "SELECT " + Rows.NODE_COLUMNS + " FROM nodes";

  private final CachedReads reads;
  /** The record links of the namespaces read through {@link #recordIds}, caught up by those reads. */
  private final NodeLinks links;
  /** The nodes of the namespaces and kinds read through {@link #ofKind}, caught up by those reads. */
  private final NodesByKind kinds;

  NodeTable(CachedReads reads, NodeLinks links, NodesByKind kinds) {
    this.reads = reads;
    this.links = links;
    this.kinds = kinds;
  }

  /** Puts nodes inside a caller's transaction; stored ids are merged and keep their seq. */
  static void put(Handle h, String namespace, List<EvidenceNode> nodes) {
    write(h, namespace, plan(h, namespace, nodes));
  }

  /**
   * What {@link #put} writes for {@code nodes}: each merged with its stored row (read here) and
   * placed at its seq, or new. Valid for a later transaction while the namespace's node change
   * counts ({@link ChangeCounts#NODES}) have not moved since the snapshot it was read in.
   */
  static List<MergeOnPut.Placed<EvidenceNode>> plan(Handle h, String namespace, List<EvidenceNode> nodes) {
    return nodes.isEmpty() ? List.of() : MergeOnPut.nodes(nodes, id -> stored(h, namespace, id));
  }

  /**
   * Writes a {@link #plan} inside a caller's transaction, stamped with one new write count: one
   * prepared statement for all rows (a segment writes tens of nodes, and preparing each row's
   * statement again was a fifth of the records commit's samples under the write lock).
   */
  static void write(Handle h, String namespace, List<MergeOnPut.Placed<EvidenceNode>> plan) {
    if (plan.isEmpty()) {
      return;
    }
    long rev = ChangeCounts.NODES.bump(h, namespace, false);
    PreparedBatch batch = h.prepareBatch(INSERT);
    for (MergeOnPut.Placed<EvidenceNode> p : plan) {
      bound(batch, p.value(), p.isNew() ? null : p.position(), rev).add();
    }
    batch.execute();
  }

  private static Optional<MergeOnPut.Placed<EvidenceNode>> stored(Handle h, String namespace, String id) {
    return h.createQuery(SELECT + " WHERE namespace = ? AND id = ?").bind(0, namespace).bind(1, id)
        .map((rs, ctx) -> new MergeOnPut.Placed<>(Rows.node(rs, ctx), rs.getLong("seq"))).findOne();
  }

  private static final String INSERT = "INSERT OR REPLACE INTO nodes(" + Rows.NODE_COLUMNS
      + ", rev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /** Binds one node row for {@link #INSERT}: inserted (seq null) or rewritten (seq given), stamped {@code rev}. */
  private static <S extends SqlStatement<S>> S bound(S statement, EvidenceNode n, Long seq, long rev) {
    DateRange span = n.span();
    return statement
        .bind(0, seq).bind(1, n.namespace()).bind(2, n.id()).bind(3, n.kind().name()).bind(4, n.key())
        .bind(5, n.label()).bind(6, n.searchText()).bind(7, JsonColumns.strings(n.recordIds()))
        .bind(8, JsonColumns.strings(n.sessions())).bind(9, JsonColumns.strings(n.entities()))
        .bind(10, JsonColumns.strings(n.tags()))
        .bind(11, span == null ? null : ColumnCodec.iso(span.start()))
        .bind(12, span == null ? null : ColumnCodec.iso(span.end())).bind(13, span == null ? 0 : 1)
        .bind(14, JsonColumns.turnRanges(n.turnRanges())).bind(15, rev);
  }

  List<EvidenceNode> byIds(String namespace, Collection<String> ids) {
    return reads.byIds(namespace, ids, 'n', SELECT, Rows::node, EvidenceNode::id);
  }

  /**
   * The record ids of the nodes, in the order of {@code ids} (no id twice, unknown ids dropped), from
   * the namespace's links in memory, caught up to the file's present version first ({@link
   * NodeLinks}; NodeLog#nodeRecordIds).
   */
  Map<String, List<String>> recordIds(String namespace, Collection<String> ids) {
    return links.recordIds(namespace, ids);
  }

  /**
   * The namespace's nodes of {@code kind} ordered by key and id, from the copy kept in memory,
   * caught up to the file's present version first ({@link NodesByKind}, round twenty).
   */
  List<EvidenceNode> ofKind(String namespace, NodeKind kind) {
    return kinds.nodes(namespace, kind);
  }

  /** Deletes the namespace's nodes; returns their ids in seq order. */
  static List<String> deleteNamespace(Handle h, String namespace) {
    List<String> ids = h.createQuery("SELECT id FROM nodes WHERE namespace = ? ORDER BY seq")
        .bind(0, namespace).mapTo(String.class).list();
    h.execute("DELETE FROM nodes WHERE namespace = ?", namespace);
    ChangeCounts.NODES.bump(h, namespace, true);
    return ids;
  }

  /**
   * Drops removed records and the forgotten session from every node ({@link SessionPruning});
   * nodes left without records are deleted. Returns the deleted ids.
   */
  static List<String> pruneSession(Handle h, String namespace, String session, Set<String> removedRecords) {
    List<String> removed = new ArrayList<>();
    Long rev = null;
    List<MergeOnPut.Placed<EvidenceNode>> rows = h.createQuery(SELECT + " WHERE namespace = ? ORDER BY seq")
        .bind(0, namespace).map((rs, ctx) -> new MergeOnPut.Placed<>(Rows.node(rs, ctx), rs.getLong("seq"))).list();
    for (MergeOnPut.Placed<EvidenceNode> row : rows) {
      EvidenceNode kept = SessionPruning.withoutRecords(row.value(), removedRecords, session);
      if (kept == null) {
        h.execute("DELETE FROM nodes WHERE seq = ?", row.position());
        removed.add(row.value().id());
      } else if (kept != row.value()) {
        if (rev == null) {
          rev = ChangeCounts.NODES.bump(h, namespace, false);
        }
        bound(h.createUpdate(INSERT), kept, row.position(), rev).execute();
      }
    }
    if (!removed.isEmpty()) {
      ChangeCounts.NODES.bump(h, namespace, true);
    }
    return removed;
  }
}
