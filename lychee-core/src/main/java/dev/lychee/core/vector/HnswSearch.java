package dev.lychee.core.vector;

import com.github.jelmerk.hnswlib.core.SearchResult;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import dev.lychee.api.ScoredId;
import dev.lychee.core.score.TopScored;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The k-nearest search over an hnswlib graph of unit vectors (inner product) that the SQL stores
 * share; they differ in how they build, change and keep their graphs. hnswlib is an optional
 * dependency of core: a store that uses this class declares it.
 */
public final class HnswSearch {

  private HnswSearch() {}

  /**
   * One vector as hnswlib holds it. The name is part of a saved graph's serialized form.
   *
   * @param id the vector's id
   * @param vector the vector
   */
  public record Item(String id, float[] vector) implements com.github.jelmerk.hnswlib.core.Item<String, float[]> {
    @Override
    public int dimensions() {
      return vector.length;
    }
  }

  /**
   * The best {@code k} accepted ids, scored by exact dot products. With a filter, the fetch widens
   * ({@code max(5k, min(k+80, 200))}, then fourfold twice); if that still leaves fewer than
   * {@code k}, an exact scan over the graph's items finishes the job, so filtering never starves the
   * result.
   *
   * @throws IllegalArgumentException if the query's dimension is not the graph's
   */
  public static List<ScoredId> search(HnswIndex<String, float[], Item, Float> index, int dim, float[] query, int k,
      Predicate<String> filter) {
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
      for (SearchResult<Item, Float> r : index.findNearest(query, want)) {
        Item item = r.item();
        if ((filter == null || filter.test(item.id())) && seen.add(item.id())) {
          hits.add(new ScoredId(item.id(), Vectors.dot(query, item.vector())));
        }
      }
      if (hits.size() >= k || filter == null || want >= n && hits.size() == countAccepted(index, filter)) {
        hits.sort(TopScored.BEST_FIRST);
        return hits.size() > k ? List.copyOf(hits.subList(0, k)) : hits;
      }
      fetch *= 4;
    }
    return exactScan(index, query, k, filter);
  }

  private static int countAccepted(HnswIndex<String, float[], Item, Float> index, Predicate<String> filter) {
    int c = 0;
    for (Item item : index.items()) {
      if (filter.test(item.id())) {
        c++;
      }
    }
    return c;
  }

  private static List<ScoredId> exactScan(HnswIndex<String, float[], Item, Float> index, float[] query, int k,
      Predicate<String> filter) {
    TopScored top = new TopScored(k);
    for (Item item : index.items()) {
      if (filter == null || filter.test(item.id())) {
        top.offer(new ScoredId(item.id(), Vectors.dot(query, item.vector())));
      }
    }
    return top.best();
  }
}
