package dev.lychee.core.store;

import dev.lychee.api.ScoredId;
import dev.lychee.core.score.TopScored;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A small in-memory BM25 index over documents identified by string ids, tokenised by
 * {@link TextTokenizer}. Thread-safe (one read/write lock).
 *
 * <p>Scoring is Okapi BM25 with {@code k1} and {@code b} (defaults 1.2 and 0.75) and the
 * non-negative idf {@code ln(1 + (N - df + 0.5) / (df + 0.5))} used by Lucene, so that a term
 * present in most documents still adds a little rather than subtracting. Each distinct query term
 * counts once. Ties are broken by id ascending so results are reproducible.
 */
public final class Bm25Index {
  /** Default term-frequency saturation. */
  public static final double DEFAULT_K1 = 1.2;
  /** Default length normalisation. */
  public static final double DEFAULT_B = 0.75;

  private final double k1;
  private final double b;
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  /** term -> (doc id -> term frequency). */
  private final Map<String, Map<String, Integer>> postings = new HashMap<>();
  /** doc id -> its distinct terms, so that removal touches only its postings. */
  private final Map<String, Set<String>> docTerms = new HashMap<>();
  private final Map<String, Integer> docLength = new HashMap<>();
  private long totalLength;

  /** An index with k1 = 1.2 and b = 0.75. */
  public Bm25Index() {
    this(DEFAULT_K1, DEFAULT_B);
  }

  public Bm25Index(double k1, double b) {
    if (!(k1 >= 0) || !(b >= 0 && b <= 1)) {
      throw new IllegalArgumentException("need k1 >= 0 and 0 <= b <= 1, got k1=" + k1 + " b=" + b);
    }
    this.k1 = k1;
    this.b = b;
  }

  /** Adds or replaces a document. */
  public void put(String id, String text) {
    List<String> tokens = TextTokenizer.tokens(text);
    Map<String, Integer> tf = new HashMap<>();
    for (String t : tokens) {
      tf.merge(t, 1, Integer::sum);
    }
    lock.writeLock().lock();
    try {
      removeLocked(id);
      for (Map.Entry<String, Integer> e : tf.entrySet()) {
        postings.computeIfAbsent(e.getKey(), x -> new HashMap<>()).put(id, e.getValue());
      }
      docTerms.put(id, new LinkedHashSet<>(tf.keySet()));
      docLength.put(id, tokens.size());
      totalLength += tokens.size();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Removes a document; unknown ids are ignored. */
  public void remove(String id) {
    lock.writeLock().lock();
    try {
      removeLocked(id);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Removes every document. */
  public void clear() {
    lock.writeLock().lock();
    try {
      postings.clear();
      docTerms.clear();
      docLength.clear();
      totalLength = 0;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Number of documents. */
  public int size() {
    lock.readLock().lock();
    try {
      return docLength.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** True when a document with this id is indexed. */
  public boolean contains(String id) {
    lock.readLock().lock();
    try {
      return docLength.containsKey(id);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The best {@code k} documents for a free-text query, best first. Any text is accepted; a query
   * without a word token returns an empty list.
   *
   * @throws IllegalArgumentException if {@code k <= 0}
   */
  public List<ScoredId> search(String query, int k) {
    if (k <= 0) {
      throw new IllegalArgumentException("k must be > 0, got " + k);
    }
    Set<String> terms = new LinkedHashSet<>(TextTokenizer.tokens(query));
    if (terms.isEmpty()) {
      return List.of();
    }
    lock.readLock().lock();
    try {
      int n = docLength.size();
      if (n == 0) {
        return List.of();
      }
      double avgdl = Math.max(1e-9, (double) totalLength / n);
      Map<String, Double> scores = new HashMap<>();
      for (String term : terms) {
        Map<String, Integer> posting = postings.get(term);
        if (posting == null) {
          continue;
        }
        int df = posting.size();
        double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (Map.Entry<String, Integer> e : posting.entrySet()) {
          double tf = e.getValue();
          double dl = docLength.get(e.getKey());
          double s = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl));
          scores.merge(e.getKey(), s, Double::sum);
        }
      }
      return topK(scores, k);
    } finally {
      lock.readLock().unlock();
    }
  }

  private static List<ScoredId> topK(Map<String, Double> scores, int k) {
    TopScored top = new TopScored(k);
    scores.forEach((id, score) -> top.offer(new ScoredId(id, score)));
    return top.best();
  }

  private void removeLocked(String id) {
    Set<String> terms = docTerms.remove(id);
    if (terms == null) {
      return;
    }
    for (String t : terms) {
      Map<String, Integer> posting = postings.get(t);
      if (posting != null) {
        posting.remove(id);
        if (posting.isEmpty()) {
          postings.remove(t);
        }
      }
    }
    Integer len = docLength.remove(id);
    totalLength -= len == null ? 0 : len;
  }
}
