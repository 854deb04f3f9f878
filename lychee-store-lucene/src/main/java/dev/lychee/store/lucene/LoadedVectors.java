package dev.lychee.store.lucene;

import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.VectorSlab;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An in-memory copy of one logical index's vectors, read once per commit and never written
 * afterwards: a {@link VectorSlab} scanned exactly with the same arithmetic as
 * {@link ExactVectorScan} ({@link dev.lychee.core.vector.Vectors#dot}, best first, ties by id), so
 * a search answers the same whether it runs on the copy or on the index files.
 */
final class LoadedVectors {
  private final VectorSlab slab = new VectorSlab();

  LoadedVectors(Map<String, float[]> vectors) {
    slab.upsert(vectors);
  }

  int size() {
    return slab.size();
  }

  int dimension() {
    return slab.dimension();
  }

  /** Approximate heap bytes, for the cache's weigher. */
  long bytes() {
    return (long) slab.size() * (Math.max(0, slab.dimension()) * 4L + 96L) + 64L;
  }

  /** The {@code k} best vectors of each query whose id passes {@code filter} (nullable), in one scan. */
  List<List<ScoredId>> search(List<float[]> queries, int k, Predicate<String> filter) {
    return slab.search(queries, k, filter);
  }
}
