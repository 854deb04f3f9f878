package dev.lychee.store.sqlite;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The nodes of one kind of a namespace ({@code NodeLog#nodes(namespace, kind)}, which the temporal
 * channel reads whole on every recall with a date), kept decoded in memory and caught up as {@link
 * NodeLinks} catches the links up: a read compares the file's {@code data_version} (moved by every
 * commit of any connection, of this process or another) with the version the copy was caught up
 * at, and only when it moved reads, in one snapshot, the namespace's {@code node_changes} row and
 * the rows stamped after the write count held ({@code rev}, schema V4), all of the kind again when
 * the deletion count moved. So a recall whose namespace saw no write runs no statement, and one
 * after a segment's commit decodes only the nodes that commit wrote.
 *
 * <p>Why not the read cache: there the list weighed one entry per node, Caffeine could drop it
 * while smaller entries stayed, and the re-read decoded every temporal node of the namespace on
 * the recall's early thread (71 ms of one x20 recall, measurements §6, round eighteen); and every
 * commit emptied the cache, so each recall after a write decoded them all again (round twenty).
 *
 * <p>Bounded: the copies together hold at most {@code maxNodes} nodes; the least recently read are
 * dropped first, and a copy larger than the bound alone is not kept (its reads read the table, as
 * with {@code maxNodes} 0). Thread-safe: one lock per copy, and the bookkeeping of the copies under
 * this object's lock, never both nested the other way round.
 */
final class NodesByKind {
  /** SQLite's BINARY collation on UTF-8 text is code point order, which {@code String} order is not. */
  private static final Comparator<String> BINARY = NodesByKind::compareCodePoints;
  /** The table's {@code ORDER BY key, id}. */
  private static final Comparator<EvidenceNode> ORDER =
      Comparator.comparing(EvidenceNode::key, BINARY).thenComparing(EvidenceNode::id, BINARY);
  private static final String SELECT = "SELECT " + Rows.NODE_COLUMNS + " FROM nodes";

  private final SqliteDatabase db;
  private final int maxNodes;
  /** Access order: the least recently read copy first. Guarded by this. */
  private final LinkedHashMap<Key, Copy> copies = new LinkedHashMap<>(16, 0.75f, true);
  /** Nodes held by the copies in {@link #copies}, as each last reported. Guarded by this. */
  private long held;

  /** @param maxNodes the nodes kept over all copies; 0 keeps none */
  NodesByKind(SqliteDatabase db, int maxNodes) {
    if (maxNodes < 0) {
      throw new IllegalArgumentException("maxNodes must be >= 0: " + maxNodes);
    }
    this.db = db;
    this.maxNodes = maxNodes;
  }

  /** The namespace's nodes of {@code kind}, ordered by key then id, as the table holds them now. */
  List<EvidenceNode> nodes(String namespace, NodeKind kind) {
    if (maxNodes == 0) {
      return db.read(h -> List.copyOf(ofKind(h, namespace, kind)));
    }
    long now = db.dataVersion(namespace);
    Key key = new Key(namespace, kind);
    Copy copy;
    synchronized (this) {
      copy = copies.computeIfAbsent(key, Copy::new);
    }
    List<EvidenceNode> out;
    synchronized (copy) {
      copy.refresh(db, now);
      out = copy.sorted();
    }
    account(key, copy, out.size());
    return out;
  }

  /**
   * Records that {@code copy} now holds {@code size} nodes, then drops the least recently read
   * copies while the bound is passed ({@code copy} too when it alone passes it).
   */
  private synchronized void account(Key key, Copy copy, int size) {
    if (copies.get(key) != copy) {
      return; // dropped while it was read: its nodes are no longer counted
    }
    held += size - copy.accounted;
    copy.accounted = size;
    Iterator<Copy> eldest = copies.values().iterator();
    while (held > maxNodes && eldest.hasNext()) {
      Copy c = eldest.next();
      if (c != copy || size > maxNodes) {
        held -= c.accounted;
        eldest.remove();
      }
    }
  }

  /** Nodes held over all copies (for tests of the bound). */
  synchronized long held() {
    return held;
  }

  /** Namespaces and kinds whose copies are held (for tests of the bound). */
  synchronized List<String> heldNamespaces() {
    return copies.keySet().stream().map(Key::namespace).toList();
  }

  private static List<EvidenceNode> ofKind(Handle h, String namespace, NodeKind kind) {
    return h.createQuery(SELECT + " WHERE namespace = ? AND kind = ? ORDER BY key, id")
        .bind(0, namespace).bind(1, kind.name()).map(Rows::node).list();
  }

  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  private record Key(String namespace, NodeKind kind) {}

  /** One namespace's nodes of one kind, caught up by the node change stamps. */
  private static final class Copy extends StampedNodeCopy {
    private final NodeKind kind;
    private final Map<String, EvidenceNode> byId = new HashMap<>();
    /** {@link #byId}'s nodes in the table's order; null when it changed since. */
    private List<EvidenceNode> sorted;
    /** The size last counted in {@link NodesByKind#held}; guarded by the outer object. */
    private int accounted;

    Copy(Key key) {
      super(key.namespace());
      this.kind = key.kind();
    }

    @Override
    void clear() {
      byId.clear();
      sorted = null;
    }

    /** Reads (again) the namespace's nodes stamped after write {@code rev}; all of the kind for -1. */
    @Override
    void readAfter(Handle h, long rev) {
      sorted = null;
      if (rev < 0) {
        ofKind(h, namespace(), kind).forEach(n -> byId.put(n.id(), n));
        return;
      }
      // every kind: a node rewritten under its id is read again whatever kind it has now
      h.createQuery(SELECT + " WHERE namespace = ? AND rev > ?").bind(0, namespace()).bind(1, rev)
          .map((rs, ctx) -> Map.entry(rs.getString("id"), kind.name().equals(rs.getString("kind"))
              ? Optional.of(Rows.node(rs, ctx)) : Optional.<EvidenceNode>empty()))
          .forEach(e -> e.getValue().ifPresentOrElse(n -> byId.put(e.getKey(), n), () -> byId.remove(e.getKey())));
    }

    List<EvidenceNode> sorted() {
      if (sorted == null) {
        List<EvidenceNode> all = new ArrayList<>(byId.values());
        all.sort(ORDER);
        sorted = List.copyOf(all);
      }
      return sorted;
    }
  }
}
