package dev.lychee.store.postgres;

import com.github.jelmerk.hnswlib.core.DistanceFunctions;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.HnswSearch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An HNSW graph (hnswlib, inner product, removal enabled) that takes changes in place: upserts
 * replace, removals unlink, and the capacity doubles when full. Scores of hits are recomputed as
 * exact dot products. Not thread-safe: {@link LocalVectors} guards it.
 */
final class HnswVectors {
  private final HnswIndex<String, float[], HnswSearch.Item, Float> index;
  private final int dim;
  /** Nodes ever added: hnswlib keeps removed nodes in its capacity count. */
  private int slotsUsed;

  private HnswVectors(HnswIndex<String, float[], HnswSearch.Item, Float> index, int dim) {
    this.index = index;
    this.dim = dim;
  }

  static HnswVectors build(Map<String, float[]> vectors, int dim, PostgresStoreConfig config) {
    HnswIndex<String, float[], HnswSearch.Item, Float> index = HnswIndex
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
    List<HnswSearch.Item> items = new ArrayList<>(vectors.size());
    vectors.forEach((id, v) -> items.add(new HnswSearch.Item(id, v.clone())));
    for (HnswSearch.Item item : items) {
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

  /** The best {@code k} accepted ids ({@link HnswSearch#search}). */
  List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    return HnswSearch.search(index, dim, query, k, filter);
  }
}
