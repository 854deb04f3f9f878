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

  private final float[][] queries;
  private final int k;
  private final Predicate<String> filter;
  // one per query; the head is the worst kept hit
  private final List<PriorityQueue<ScoredId>> best;

  // vectors met, before the filter
  private int scanned;

  /**
   * The best hits of a scan and how many vectors it met, filtered out or not.
   *
   * @param hits best first
   * @param scanned the live vectors the query matched
   */
  record Scanned(List<ScoredId> hits, int scanned) {}

  private ExactVectorScan(List<String> fields, List<float[]> queries, int k, Predicate<String> filter) {
    super(fields.toArray(String[]::new));
    this.queries = queries.toArray(float[][]::new);
    this.k = k;
    this.filter = filter;
    this.best = new ArrayList<>(queries.size());
    for (int i = 0; i < queries.size(); i++) {
      best.add(new PriorityQueue<>(Math.min(k, 1024) + 1, BEST_FIRST.reversed()));
    }
  }

  /** The {@code k} best live documents matching {@code scope} whose id passes {@code filter}. */
  static List<ScoredId> search(IndexSearcher searcher, Query scope, List<String> fields, float[] query, int k,
      Predicate<String> filter) throws IOException {
    return scanAll(searcher, scope, fields, List.of(query), k, filter).get(0).hits();
  }

  /**
   * As {@link #search} for each of {@code queries}, in one walk of the documents: a document's id
   * and vector are read once for all of them (a route's query variants search the same part of an
   * index). One {@link Scanned} per query, in order; each counts every vector the walk met.
   */
  static List<Scanned> scanAll(IndexSearcher searcher, Query scope, List<String> fields, List<float[]> queries,
      int k, Predicate<String> filter) throws IOException {
    ExactVectorScan scan = new ExactVectorScan(fields, queries, k, filter);
    searcher.search(scope, scan);
    List<Scanned> out = new ArrayList<>(queries.size());
    for (PriorityQueue<ScoredId> kept : scan.best) {
      List<ScoredId> hits = new ArrayList<>(kept);
      hits.sort(BEST_FIRST);
      out.add(new Scanned(hits, scan.scanned));
    }
    return out;
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
    for (int i = 0; i < queries.length; i++) {
      PriorityQueue<ScoredId> kept = best.get(i);
      ScoredId hit = new ScoredId(id, Vectors.dot(queries[i], v, 0));
      if (kept.size() < k) {
        kept.add(hit);
      } else if (BEST_FIRST.compare(hit, kept.peek()) < 0) {
        kept.poll();
        kept.add(hit);
      }
    }
  }
}
