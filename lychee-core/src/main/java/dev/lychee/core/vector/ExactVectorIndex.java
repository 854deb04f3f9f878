package dev.lychee.core.vector;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A {@link VectorIndex} that scans every vector: exact results, one {@link VectorSlab} per
 * (namespace, kind). Fast enough for tens of thousands of vectors per index; durable stores
 * switch to an approximate index above that.
 *
 * <p>Slabs are never dropped from the maps (forgetting clears them under their lock), so a writer
 * racing {@link #forget} cannot write into a detached slab and lose vectors silently.
 */
public final class ExactVectorIndex implements VectorIndex {
  private final Map<String, Map<String, VectorSlab>> spaces = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** An empty index. */
  public ExactVectorIndex() {}

  private static String nonBlank(String v, String name) {
    Objects.requireNonNull(v, name);
    if (v.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return v;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("vector index is closed");
    }
  }

  private VectorSlab slab(String namespace, String kind, boolean create) {
    checkOpen();
    nonBlank(namespace, "namespace");
    nonBlank(kind, "kind");
    if (!create) {
      Map<String, VectorSlab> kinds = spaces.get(namespace);
      return kinds == null ? null : kinds.get(kind);
    }
    return spaces.computeIfAbsent(namespace, n -> new ConcurrentHashMap<>())
        .computeIfAbsent(kind, k -> new VectorSlab());
  }

  @Override
  public void upsert(String namespace, String kind, Map<String, float[]> vectors) {
    Objects.requireNonNull(vectors, "vectors");
    slab(namespace, kind, true).upsert(vectors);
  }

  @Override
  public List<ScoredId> search(String namespace, String kind, float[] query, int k, Predicate<String> filter) {
    return searchAll(namespace, kind, List.of(Objects.requireNonNull(query, "query")), k, filter).get(0);
  }

  /** All queries in one pass over the slab ({@link VectorSlab#search(List, int, Predicate)}). */
  @Override
  public List<List<ScoredId>> searchAll(String namespace, String kind, List<float[]> queries, int k,
      Predicate<String> filter) {
    Vectors.checkQueries(queries, k);
    VectorSlab s = slab(namespace, kind, false);
    return s == null ? queries.stream().map(q -> List.<ScoredId>of()).toList() : s.search(queries, k, filter);
  }

  @Override
  public void remove(String namespace, String kind, Collection<String> ids) {
    Objects.requireNonNull(ids, "ids");
    VectorSlab s = slab(namespace, kind, false);
    if (s != null) {
      s.remove(ids);
    }
  }

  @Override
  public void forget(String namespace) {
    checkOpen();
    nonBlank(namespace, "namespace");
    Map<String, VectorSlab> kinds = spaces.get(namespace);
    if (kinds != null) {
      kinds.values().forEach(VectorSlab::clear);
    }
  }

  @Override
  public int size(String namespace, String kind) {
    VectorSlab s = slab(namespace, kind, false);
    return s == null ? 0 : s.size();
  }

  @Override
  public void close() {
    closed = true;
  }
}
