package dev.lychee.api.spi;

import dev.lychee.api.Forgotten;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Append-only storage of raw turns, segments, memory records and evidence nodes, scoped by
 * namespace: the aggregate of the narrow storage SPIs ({@link TurnLog}, {@link SegmentLog},
 * {@link RecordLog}, {@link NodeLog}, {@link TextSearch}) plus what spans all of them, deletion
 * and closing. Components depend on the narrow interface they use where they can; one store
 * object implements them all, so every concern sees one transaction discipline.
 *
 * <p>Contract for every implementation:
 * <ul>
 *   <li><b>Isolation.</b> No read, search, listing or deletion ever returns or touches data of
 *       another namespace.</li>
 *   <li><b>Durability.</b> A write method that returned has committed (durable stores: to disk,
 *       in one transaction per call).</li>
 *   <li><b>Idempotency.</b> Appending a turn whose (session, index) is stored is a no-op;
 *       committing a record or node whose id is stored merges it.</li>
 *   <li><b>Ordering.</b> Turns come back by index; records and nodes in first-insertion order;
 *       segments by session then first turn.</li>
 *   <li><b>Errors.</b> Blank namespace or session: {@link IllegalArgumentException}. An unknown
 *       namespace is not an error: it is empty. Lexical queries never throw on user syntax.</li>
 *   <li><b>Threads.</b> Safe for concurrent readers and writers.</li>
 * </ul>
 * Lychee's core checks arguments and the closed state once, in front of every backend
 * ({@code dev.lychee.core.store.CheckedRecordStore}), so a backend only stores.
 */
public interface RecordStore extends TurnLog, SegmentLog, RecordLog, NodeLog, TextSearch, AutoCloseable {

  /**
   * The records some evidence nodes link to, read together: of each node with one of these ids, its
   * first {@code perNode} record ids as {@link #nodeRecordIds} gives them, and the stored records of
   * all those ids ({@link LinkedRecords} says in which order). Recall follows every node hit to its
   * records this way. The default is that read and then {@link #records(String, Collection)}; a
   * store that pays per round trip answers both in one.
   *
   * @param perNode how many of each node's record ids to follow, from its first; at least 0
   */
  default LinkedRecords linkedRecords(String namespace, Collection<String> nodeIds, int perNode) {
    Map<String, List<String>> links = new LinkedHashMap<>();
    Set<String> wanted = new LinkedHashSet<>();
    for (Map.Entry<String, List<String>> node : nodeRecordIds(namespace, nodeIds).entrySet()) {
      List<String> ids = node.getValue();
      List<String> first = ids.subList(0, Math.min(perNode, ids.size()));
      links.put(node.getKey(), first);
      wanted.addAll(first);
    }
    return new LinkedRecords(links, wanted.isEmpty() ? List.of() : records(namespace, wanted));
  }

  /**
   * A point at which the reads of one recall of {@code namespace} may all be answered ({@link
   * ReadPoint}): the recall pipeline runs each recall inside one. The default is {@link
   * ReadPoint#NONE} (every read answered on its own); a store that reads what changed since its
   * last read before answering, one round trip each, reads it once per point instead. A store may
   * let the searches of its own vector index over the same database answer at the point too.
   */
  default ReadPoint readPoint(String namespace) {
    return ReadPoint.NONE;
  }

  /**
   * The namespaces that hold at least one segment not encoded yet ({@link #pendingSegments}), each
   * once, in no set order. The write path's periodic sweep asks this first and then reads the
   * pending segments of those namespaces only, so a sweep with nothing waiting costs one read
   * however many namespaces and segments the store holds. The default asks {@link #pendingSegments}
   * of every namespace, so a store that does not override it keeps working.
   */
  default List<String> pendingNamespaces() {
    return namespaces().stream().filter(ns -> !pendingSegments(ns).isEmpty()).toList();
  }

  /** Removes everything of a namespace. */
  Forgotten forget(String namespace);

  /**
   * Removes a session: its turns and segments; records lose their evidence in that session and
   * are removed when none is left; nodes lose removed records and are removed when none is left.
   */
  Forgotten forget(String namespace, String session);

  /**
   * Waits until the work this store does in the background after its writes returned has ended
   * (a Lucene index's deferred commit and the segment merges it starts), or {@code timeout} passed.
   * Measurements call it so that an ingest's time runs until the store is idle and the recalls timed
   * after it share the machine with nothing the ingest left running (round twenty-four). The default
   * has no such work.
   *
   * @return true when nothing is left running, false when {@code timeout} passed first
   */
  default boolean awaitQuiet(Duration timeout) {
    return true;
  }

  /** Releases resources; further calls fail with {@link IllegalStateException}. */
  @Override
  void close();
}
