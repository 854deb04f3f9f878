package dev.lychee.store.lucene;

import dev.lychee.api.ScoredId;
import dev.lychee.core.vector.Vectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;

/**
 * Brute-force top-k over the live vectors that a query matches, in the given vector fields (a
 * document's vector is in one of them, {@link VectorFields}): the exact answer the HNSW graph
 * approximates, used for small indexes, for the flat part of a large one, and when a caller filter
 * starves the graph search. Scores are {@link Vectors#dot} products (cosines for unit vectors), as
 * the in-memory copy computes them.
 */
final class ExactVectorScan extends LiveVectors {
  /** Best first: score descending, then id ascending. */
  static final Comparator<ScoredId> BEST_FIRST =
      Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id);

  private final float[] query;
  private final int k;
  private final Predicate<String> filter;
  // the head is the worst kept hit
  private final PriorityQueue<ScoredId> best;

  // vectors met, before the filter
  private int scanned;

  /**
   * The best hits of a scan and how many vectors it met, filtered out or not.
   *
   * @param hits best first
   * @param scanned the live vectors the query matched
   */
  record Scanned(List<ScoredId> hits, int scanned) {}

  private ExactVectorScan(List<String> fields, float[] query, int k, Predicate<String> filter) {
    super(fields.toArray(String[]::new));
    this.query = query;
    this.k = k;
    this.filter = filter;
    this.best = new PriorityQueue<>(Math.min(k, 1024) + 1, BEST_FIRST.reversed());
  }

  /** The {@code k} best live documents matching {@code scope} whose id passes {@code filter}. */
  static List<ScoredId> search(IndexSearcher searcher, Query scope, List<String> fields, float[] query, int k,
      Predicate<String> filter) throws IOException {
    return scan(searcher, scope, fields, query, k, filter).hits();
  }

  /** As {@link #search}, and how many vectors the scan met. */
  static Scanned scan(IndexSearcher searcher, Query scope, List<String> fields, float[] query, int k,
      Predicate<String> filter) throws IOException {
    ExactVectorScan scan = new ExactVectorScan(fields, query, k, filter);
    searcher.search(scope, scan);
    List<ScoredId> out = new ArrayList<>(scan.best);
    out.sort(BEST_FIRST);
    return new Scanned(out, scan.scanned);
  }

  /** Every live vector matching {@code scope}, by id (copies, safe to keep after the searcher is released). */
  static Map<String, float[]> all(IndexSearcher searcher, Query scope, List<String> fields) throws IOException {
    Map<String, float[]> out = new LinkedHashMap<>();
    // the values object reuses its array between documents
    searcher.search(scope, new LiveVectors(fields.toArray(String[]::new)) {
      @Override
      void accept(String id, float[] vector) {
        out.put(id, vector.clone());
      }
    });
    return out;
  }

  @Override
  void accept(String id, float[] v) {
    scanned++;
    if (filter != null && !filter.test(id)) {
      return;
    }
    ScoredId hit = new ScoredId(id, Vectors.dot(query, v, 0));
    if (best.size() < k) {
      best.add(hit);
    } else if (BEST_FIRST.compare(hit, best.peek()) < 0) {
      best.poll();
      best.add(hit);
    }
  }
}
