package dev.lychee.api.spi;

import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Nearest-neighbour search over unit vectors, one logical index per (namespace, kind).
 *
 * <p>Contract: scores are cosine similarities (dot products of unit vectors), results are sorted
 * by score descending then id ascending, at most {@code k} come back, and a search never returns
 * an id of another namespace or kind. Upserting an existing id replaces its vector. All vectors
 * of one index share one dimension; a mismatch is an {@link IllegalArgumentException}. {@code k <=
 * 0} is an {@link IllegalArgumentException}. Thread-safe.
 */
public interface VectorIndex extends AutoCloseable {

  /** Kind of the raw-turn index. */
  String TURNS = "turn";
  /** Kind of the record index (vectors of {@code normalizedText()}). */
  String RECORDS = "record";

  /** Kind of the index of one evidence-node kind. */
  static String nodes(NodeKind kind) {
    return "node:" + kind.wireName();
  }

  /** Inserts or replaces vectors. */
  void upsert(String namespace, String kind, Map<String, float[]> vectors);

  /**
   * Inserts or replaces the vectors of several kinds of one namespace, as {@link #upsert} does for
   * each. The default calls {@link #upsert} per kind (not atomic across kinds); an index whose
   * writes cost per call (a commit each) may write them all at once, which the write path uses for
   * a segment's record and node vectors.
   *
   * @param vectorsByKind the vectors of each kind, keyed by kind
   */
  default void upsertAll(String namespace, Map<String, Map<String, float[]>> vectorsByKind) {
    vectorsByKind.forEach((kind, vectors) -> upsert(namespace, kind, vectors));
  }

  /**
   * The {@code k} nearest ids.
   *
   * @param filter nullable; when set only ids it accepts are returned (the search widens its fetch
   *     so that filtering does not starve the result)
   */
  List<ScoredId> search(String namespace, String kind, float[] query, int k, Predicate<String> filter);

  /**
   * The {@code k} nearest ids of each of several queries against one index: element {@code i} of
   * the result is exactly what {@link #search} returns for {@code queries.get(i)}. Recall searches
   * every query variant of a route in the same index, so an index that scans can read each stored
   * vector once for all of them; the default runs one search per query.
   *
   * @param queries the query vectors, each checked as {@link #search} checks one
   * @param filter nullable, as for {@link #search}
   * @return one result list per query, in query order
   */
  default List<List<ScoredId>> searchAll(String namespace, String kind, List<float[]> queries, int k,
      Predicate<String> filter) {
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    for (float[] q : queries) {
      out.add(search(namespace, kind, q, k, filter));
    }
    return out;
  }

  /**
   * {@link #searchAll} over several indexes (kinds) of one namespace: the value of each kind is
   * exactly what {@code searchAll(namespace, kind, queries, k, filter)} returns. Recall's
   * evidence-node channel searches the four node kinds with the same queries, so an index that
   * pays per call (a database round trip to learn whether its copy is current) may answer them
   * together; the default runs one {@link #searchAll} per kind.
   *
   * @param kinds the kinds to search, each checked as {@link #searchAll} checks one (a kind named
   *     twice is searched once)
   * @param queries the query vectors, as for {@link #searchAll}
   * @param filter nullable, as for {@link #search}
   * @return the result lists of each kind, keyed by kind in the order of {@code kinds}
   */
  default Map<String, List<List<ScoredId>>> searchKinds(String namespace, List<String> kinds, List<float[]> queries,
      int k, Predicate<String> filter) {
    Map<String, List<List<ScoredId>>> out = new LinkedHashMap<>();
    for (String kind : kinds) {
      if (!out.containsKey(kind)) {
        out.put(kind, searchAll(namespace, kind, queries, k, filter));
      }
    }
    return out;
  }

  /** Removes ids (unknown ids are ignored). */
  void remove(String namespace, String kind, Collection<String> ids);

  /** Removes every index of the namespace. */
  void forget(String namespace);

  /** Number of vectors in one index. */
  int size(String namespace, String kind);

  /**
   * Waits until the work this index does in the background after its writes returned has ended
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

  @Override
  void close();
}
