package dev.lychee.store.sqlite;

import dev.lychee.core.store.JsonColumns;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;

/**
 * The record ids every evidence node of a namespace links, kept in memory so that recall's node
 * links ({@code NodeLog#nodeRecordIds}, which the evidence-node channel reads for every node hit)
 * cost no statement while nothing was written: a read first compares the file's {@code
 * data_version} (moved by every commit of any connection, of this process or another) with the
 * version the links were caught up at, and only when it moved catches them up, in one snapshot, as
 * {@link RecordBm25} does for records: the namespace's node write count ({@code node_changes},
 * schema V4) says whether any node was written since, and then the rows stamped after the count
 * last read are read again ({@code rev}: a merge rewrites a node in place with more record ids);
 * a moved deletion count (forgetting) makes it read the namespace's links afresh
 * (docs/defaults.md §3.3).
 *
 * <p>Unlike the turn and record copies, which the lexical searches keep because they read every row
 * anyway, the links are caught up by their own reads: the first read of a namespace reads all its
 * nodes' {@code id} and {@code record_ids} columns once (a namespace never recalled costs nothing;
 * an {@code append} never reads links). Thread-safe: one lock per namespace.
 */
final class NodeLinks {
  private final SqliteDatabase db;
  private final Map<String, Links> namespaces = new ConcurrentHashMap<>();

  NodeLinks(SqliteDatabase db) {
    this.db = db;
  }

  /**
   * The record ids of the nodes of {@code ids} that exist, in the order of {@code ids} (no id
   * twice), as the table holds them at the file's present version.
   */
  Map<String, List<String>> recordIds(String namespace, Collection<String> ids) {
    long now = db.dataVersion(namespace);
    Links l = namespaces.computeIfAbsent(namespace, Links::new);
    synchronized (l) {
      l.refresh(db, now);
      Map<String, List<String>> out = new LinkedHashMap<>();
      for (String id : new LinkedHashSet<>(ids)) {
        List<String> recordIds = l.byId.get(id);
        if (recordIds != null) {
          out.put(id, recordIds);
        }
      }
      return out;
    }
  }

  /** One namespace's links, caught up by the node change stamps. */
  private static final class Links extends StampedNodeCopy {
    /** Node id to its record ids, immutable, as last read. */
    private final Map<String, List<String>> byId = new HashMap<>();

    Links(String namespace) {
      super(namespace);
    }

    @Override
    void clear() {
      byId.clear();
    }

    @Override
    void readAfter(Handle h, long rev) {
      h.createQuery("SELECT id, record_ids FROM nodes WHERE namespace = ? AND rev > ?")
          .bind(0, namespace()).bind(1, rev)
          .map((rs, ctx) -> Map.entry(rs.getString(1), List.copyOf(JsonColumns.strings(rs.getString(2)))))
          .forEach(e -> byId.put(e.getKey(), e.getValue()));
    }
  }
}
