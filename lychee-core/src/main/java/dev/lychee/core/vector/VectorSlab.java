package dev.lychee.core.vector;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * One logical vector index held as a contiguous {@code float[]} of {@code n * dim} values plus a
 * parallel id array. Removal moves the last vector into the hole, so the array stays dense and a
 * scan is one linear pass. Thread-safe through one read/write lock.
 *
 * <p>The dimension is fixed by the first vector and released again when the slab becomes empty.
 */
public final class VectorSlab {
  private static final Comparator<ScoredId> BEST_FIRST =
      Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id);

  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private float[] data = new float[0];
  private String[] ids = new String[0];
  private final Map<String, Integer> slot = new HashMap<>();
  private int size;
  private int dim = -1;

  /** Inserts or replaces vectors, all or none (dimensions are checked first). */
  public void upsert(Map<String, float[]> vectors) {
    lock.writeLock().lock();
    try {
      int d = size == 0 ? -1 : dim;
      for (Map.Entry<String, float[]> e : vectors.entrySet()) {
        float[] v = Vectors.checkVector(e.getKey(), e.getValue());
        if (d == -1) {
          d = v.length;
        } else if (v.length != d) {
          throw new IllegalArgumentException("vector '" + e.getKey() + "' has dimension " + v.length
              + " but the index holds dimension " + d);
        }
      }
      if (vectors.isEmpty()) {
        return;
      }
      dim = d;
      ensureCapacity(size + vectors.size());
      for (Map.Entry<String, float[]> e : vectors.entrySet()) {
        Integer at = slot.get(e.getKey());
        if (at == null) {
          at = size++;
          slot.put(e.getKey(), at);
          ids[at] = e.getKey();
        }
        System.arraycopy(e.getValue(), 0, data, at * dim, dim);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  private void ensureCapacity(int n) {
    if (ids.length >= n) {
      return;
    }
    int cap = Math.max(n, Math.max(16, ids.length + (ids.length >> 1)));
    ids = Arrays.copyOf(ids, cap);
    data = Arrays.copyOf(data, Math.multiplyExact(cap, dim));
  }

  /** Removes ids; unknown ones are ignored. */
  public void remove(Collection<String> toRemove) {
    lock.writeLock().lock();
    try {
      for (String id : toRemove) {
        Integer at = slot.remove(id);
        if (at == null) {
          continue;
        }
        int last = --size;
        if (at != last) {
          ids[at] = ids[last];
          System.arraycopy(data, last * dim, data, at * dim, dim);
          slot.put(ids[at], at);
        }
        ids[last] = null;
      }
      if (size == 0) {
        clearLocked();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Removes everything. */
  public void clear() {
    lock.writeLock().lock();
    try {
      clearLocked();
    } finally {
      lock.writeLock().unlock();
    }
  }

  private void clearLocked() {
    data = new float[0];
    ids = new String[0];
    slot.clear();
    size = 0;
    dim = -1;
  }

  public int size() {
    lock.readLock().lock();
    try {
      return size;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The dimension of the stored vectors, or -1 when empty. */
  public int dimension() {
    lock.readLock().lock();
    try {
      return dim;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A copy of the stored vector, or null. */
  public float[] get(String id) {
    lock.readLock().lock();
    try {
      Integer at = slot.get(id);
      return at == null ? null : Arrays.copyOfRange(data, at * dim, at * dim + dim);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The {@code k} best ids by dot product, score descending then id ascending. The filter runs
   * inside the scan, so a selective filter never starves the result.
   */
  public List<ScoredId> search(float[] query, int k, Predicate<String> filter) {
    return search(List.of(query), k, filter).get(0);
  }

  /**
   * The {@code k} best ids of each query, as {@link #search(float[], int, Predicate)} gives them,
   * in one pass over the slab: each stored vector is read once and compared with every query
   * while it is in cache, and the filter is asked once per id. A kept hit costs no allocation
   * until the result lists are built.
   */
  public List<List<ScoredId>> search(List<float[]> queries, int k, Predicate<String> filter) {
    lock.readLock().lock();
    try {
      if (size == 0) {
        return queries.stream().map(q -> List.<ScoredId>of()).toList();
      }
      for (float[] q : queries) {
        if (q.length != dim) {
          throw new IllegalArgumentException("query has dimension " + q.length
              + " but the index holds dimension " + dim);
        }
      }
      int m = queries.size();
      float[][] qs = queries.toArray(new float[0][]);
      TopK[] best = new TopK[m];
      for (int j = 0; j < m; j++) {
        best[j] = new TopK(Math.min(k, size));
      }
      // the queries two at a time (Vectors.dot2: each score as Vectors.dot gives it), the odd one alone
      double[] pair = new double[2];
      int paired = m & ~1;
      for (int i = 0; i < size; i++) {
        if (filter != null && !filter.test(ids[i])) {
          continue;
        }
        int offset = i * dim;
        for (int j = 0; j < paired; j += 2) {
          Vectors.dot2(qs[j], qs[j + 1], data, offset, pair, 0);
          best[j].offer(pair[0], i);
          best[j + 1].offer(pair[1], i);
        }
        if (paired < m) {
          best[m - 1].offer(Vectors.dot(qs[m - 1], data, offset), i);
        }
      }
      List<List<ScoredId>> out = new ArrayList<>(m);
      for (TopK t : best) {
        out.add(t.sorted());
      }
      return out;
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The best rows of one query: a binary heap of (score, row) pairs in parallel arrays whose root
   * is the worst row kept, ordered as {@link #BEST_FIRST} orders hits (lower score, then larger
   * id, is worse). Used under the read lock only.
   */
  private final class TopK {
    private final int[] rows;
    private final double[] scores;
    private int n;

    TopK(int capacity) {
      rows = new int[capacity];
      scores = new double[capacity];
    }

    private boolean worse(double sa, int ra, double sb, int rb) {
      int c = Double.compare(sa, sb);
      return c < 0 || (c == 0 && ids[ra].compareTo(ids[rb]) > 0);
    }

    void offer(double s, int row) {
      if (n < rows.length) {
        int at = n++;
        while (at > 0) {
          int parent = (at - 1) >>> 1;
          if (!worse(s, row, scores[parent], rows[parent])) {
            break;
          }
          rows[at] = rows[parent];
          scores[at] = scores[parent];
          at = parent;
        }
        rows[at] = row;
        scores[at] = s;
      } else if (n > 0 && worse(scores[0], rows[0], s, row)) {
        int at = 0;
        while (true) {
          int child = 2 * at + 1;
          if (child >= n) {
            break;
          }
          if (child + 1 < n && worse(scores[child + 1], rows[child + 1], scores[child], rows[child])) {
            child++;
          }
          if (!worse(scores[child], rows[child], s, row)) {
            break;
          }
          rows[at] = rows[child];
          scores[at] = scores[child];
          at = child;
        }
        rows[at] = row;
        scores[at] = s;
      }
    }

    List<ScoredId> sorted() {
      List<ScoredId> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(new ScoredId(ids[rows[i]], scores[i]));
      }
      out.sort(BEST_FIRST);
      return out;
    }
  }
}
