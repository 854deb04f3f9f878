package dev.lychee.store.postgres;

import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.VectorSlab;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * This instance's copy of one (namespace, kind): an exact {@link VectorSlab} up to {@link
 * PostgresStoreConfig#exactSearchMaxVectors()} vectors, an {@link HnswVectors} graph above, and the
 * head ({@code epoch}, {@code seq}) of the database it mirrors with the server run it was read from
 * ({@link VectorTable.Head}). {@link PostgresVectorIndex} brings it forward by replaying changes and
 * guards it with a read/write lock.
 */
final class LocalVectors {
  private final long epoch;
  private final String server;
  private long seq;
  private final VectorSlab slab;
  private final HnswVectors graph;

  private LocalVectors(VectorTable.Head head, VectorSlab slab, HnswVectors graph) {
    this.epoch = head.epoch();
    this.server = head.server();
    this.seq = head.seq();
    this.slab = slab;
    this.graph = graph;
  }

  /** A copy of every vector of an index at {@code head}, read in the same snapshot. */
  static LocalVectors of(VectorTable.Head head, Map<String, float[]> all, PostgresStoreConfig config) {
    if (all.size() > config.exactSearchMaxVectors()) {
      int dim = all.values().iterator().next().length;
      return new LocalVectors(head, null, HnswVectors.build(all, dim, config));
    }
    VectorSlab slab = new VectorSlab();
    slab.upsert(all);
    return new LocalVectors(head, slab, null);
  }

  long epoch() {
    return epoch;
  }

  /** The server run this copy was read from ({@link VectorTable.Head#server()}). */
  String server() {
    return server;
  }

  /**
   * Whether changes after this copy's number, up to {@code head}, can be replayed onto it: the same
   * epoch and the same server run. After a restart a copy is never trusted, even at a higher
   * number than the head: commits it saw may have been lost in a crash, and their numbers reused
   * (round twenty-three, {@link VectorTable.Head}).
   */
  boolean follows(VectorTable.Head head) {
    return epoch == head.epoch() && server.equals(head.server());
  }

  long seq() {
    return seq;
  }

  int size() {
    return slab != null ? slab.size() : graph.size();
  }

  boolean isGraph() {
    return graph != null;
  }

  /**
   * Applies changes up to {@code newSeq}. Returns false when the copy should be rebuilt instead
   * (the exact slab outgrew its limit).
   */
  boolean apply(VectorTable.Changes changes, long newSeq, PostgresStoreConfig config) {
    if (slab != null) {
      slab.remove(changes.removals());
      slab.upsert(changes.upserts());
      if (slab.size() > config.exactSearchMaxVectors()) {
        return false;
      }
    } else {
      boolean otherDimension = changes.upserts().values().stream().anyMatch(v -> v.length != graph.dimension());
      if (otherDimension) {
        return false; // emptied and refilled with another dimension: rebuild
      }
      graph.remove(changes.removals());
      graph.upsert(changes.upserts());
    }
    seq = newSeq;
    return true;
  }

  List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    return slab != null ? slab.search(query, k, filter) : graph.search(query, k, filter);
  }

  /**
   * What {@link #search} gives for each query, in query order: the exact slab reads each stored
   * vector once for all of them; the graph is walked once per query.
   */
  List<List<ScoredId>> searchAll(List<float[]> queries, int k, Predicate<String> filter) {
    if (slab != null) {
      return slab.search(queries, k, filter);
    }
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    for (float[] q : queries) {
      out.add(graph.search(q, k, filter));
    }
    return out;
  }
}
