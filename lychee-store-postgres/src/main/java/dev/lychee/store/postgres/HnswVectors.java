package dev.lychee.store.postgres;

import com.github.jelmerk.hnswlib.core.DistanceFunctions;
import com.github.jelmerk.hnswlib.core.Item;
import com.github.jelmerk.hnswlib.core.SearchResult;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.Vectors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An HNSW graph (hnswlib, inner product, removal enabled) that takes changes in place: upserts
 * replace, removals unlink, and the capacity doubles when full. Scores of hits are recomputed as
 * exact dot products. Not thread-safe: {@link LocalVectors} guards it.
 */
final class HnswVectors {
  private static final Comparator<ScoredId> BEST_FIRST =
      Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id);

  /** One vector as hnswlib wants it. */
  record VecItem(String id, float[] vector) implements Item<String, float[]> {
    @Override
    public int dimensions() {
      return vector.length;
    }
  }

  private final HnswIndex<String, float[], VecItem, Float> index;
  private final int dim;
  /** Nodes ever added: hnswlib keeps removed nodes in its capacity count. */
  private int slotsUsed;

  private HnswVectors(HnswIndex<String, float[], VecItem, Float> index, int dim) {
    this.index = index;
    this.dim = dim;
  }

  static HnswVectors build(Map<String, float[]> vectors, int dim, PostgresStoreConfig config) {
    HnswIndex<String, float[], VecItem, Float> index = HnswIndex
        .newBuilder(dim, DistanceFunctions.FLOAT_INNER_PRODUCT, Math.max(64, vectors.size() * 2))
        .withM(config.hnswM()).withEfConstruction(config.hnswEfConstruction()).withEf(config.hnswEf())
        .withRemoveEnabled().build();
    HnswVectors g = new HnswVectors(index, dim);
    g.upsert(vectors);
    return g;
  }

  int size() {
    return index.size();
  }

  int dimension() {
    return dim;
  }

  void upsert(Map<String, float[]> vectors) {
    for (Map.Entry<String, float[]> e : vectors.entrySet()) {
      if (e.getValue().length != dim) {
        throw new IllegalArgumentException("vector '" + e.getKey() + "' has dimension " + e.getValue().length
            + " but the index holds dimension " + dim);
      }
    }
    List<VecItem> items = new ArrayList<>(vectors.size());
    vectors.forEach((id, v) -> items.add(new VecItem(id, v.clone())));
    for (VecItem item : items) {
      if (slotsUsed + 1 >= index.getMaxItemCount()) {
        index.resize(index.getMaxItemCount() * 2);
      }
      index.remove(item.id(), 0);
      index.add(item);
      slotsUsed++;
    }
  }

  void remove(Collection<String> ids) {
    for (String id : ids) {
      index.remove(id, 0);
    }
  }

  /**
   * The best {@code k} accepted ids. With a filter, the fetch widens ({@code max(5k, min(k+80,
   * 200))}, then fourfold twice); if that still leaves fewer than {@code k}, an exact scan over the
   * items finishes the job, so filtering never starves the result.
   */
  List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    if (query.length != dim) {
      throw new IllegalArgumentException("query has dimension " + query.length + " but the index holds dimension " + dim);
    }
    int n = index.size();
    if (n == 0) {
      return List.of();
    }
    // without a filter, fetch twice k so that ties at the cut-off are settled by id, not by graph order
    long fetch = filter == null ? 2L * k : Math.max(5L * k, Math.min(k + 80L, 200L));
    for (int round = 0; round < 3; round++) {
      int want = (int) Math.min(fetch, n);
      List<ScoredId> hits = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (SearchResult<VecItem, Float> r : index.findNearest(query, want)) {
        VecItem item = r.item();
        if ((filter == null || filter.test(item.id())) && seen.add(item.id())) {
          hits.add(new ScoredId(item.id(), Vectors.dot(query, item.vector())));
        }
      }
      if (hits.size() >= k || filter == null) {
        hits.sort(BEST_FIRST);
        return hits.size() > k ? List.copyOf(hits.subList(0, k)) : hits;
      }
      fetch *= 4;
    }
    return exactScan(query, k, filter);
  }

  private List<ScoredId> exactScan(float[] query, int k, Predicate<String> filter) {
    PriorityQueue<ScoredId> heap = new PriorityQueue<>(BEST_FIRST.reversed());
    for (VecItem item : index.items()) {
      if (filter != null && !filter.test(item.id())) {
        continue;
      }
      ScoredId hit = new ScoredId(item.id(), Vectors.dot(query, item.vector()));
      if (heap.size() < k) {
        heap.add(hit);
      } else if (BEST_FIRST.compare(hit, heap.peek()) < 0) {
        heap.poll();
        heap.add(hit);
      }
    }
    List<ScoredId> out = new ArrayList<>(heap);
    out.sort(BEST_FIRST);
    return out;
  }
}
