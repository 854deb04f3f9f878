package dev.lychee.core.store;

import dev.lychee.api.ScoredId;
import dev.lychee.core.score.TopScored;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 *
 * <p>Postings are primitive: each document gets an int slot, and a term's posting is a pair of
 * int arrays (slots, term frequencies), so that a search over a namespace of tens of thousands of
 * documents adds scores into one {@code double[]} instead of boxing a score per posting. A removed
 * or replaced document's slot is only marked dead (its postings are skipped and no longer counted
 * in a term's document frequency); the arrays are compacted when dead slots outnumber live ones.
 */
public final class Bm25Index {
  /** Default term-frequency saturation. */
  public static final double DEFAULT_K1 = 1.2;
  /** Default length normalisation. */
  public static final double DEFAULT_B = 0.75;

  private final double k1;
  private final double b;
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  /** term -> its posting; a term with no live document is dropped. */
  private final Map<String, Posting> postings = new HashMap<>();
  /** doc id -> its live slot. */
  private final Map<String, Integer> slotOf = new HashMap<>();
  /** slot -> doc id, null once the slot is dead. */
  private String[] idOf = new String[16];
  /** slot -> document length in tokens. */
  private int[] lengthOf = new int[16];
  /** slot -> the distinct terms of the document, so that removal touches only its postings. */
  private String[][] termsOf = new String[16][];
  private int slots;
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

  /** One term's documents: parallel arrays of slots and term frequencies, dead slots included. */
  private static final class Posting {
    int[] slots = new int[4];
    int[] tfs = new int[4];
    int size;
    /** Documents still alive, the term's document frequency. */
    int live;

    void add(int slot, int tf) {
      if (size == slots.length) {
        slots = Arrays.copyOf(slots, size * 2);
        tfs = Arrays.copyOf(tfs, size * 2);
      }
      slots[size] = slot;
      tfs[size] = tf;
      size++;
      live++;
    }
  }

  /** Adds or replaces a document. */
  public void put(String id, String text) {
    List<String> tokens = TextTokenizer.tokens(text);
    Map<String, Integer> tf = new LinkedHashMap<>();
    for (String t : tokens) {
      tf.merge(t, 1, Integer::sum);
    }
    lock.writeLock().lock();
    try {
      removeLocked(id);
      if (slots == idOf.length) {
        int n = Math.max(16, slots * 2);
        idOf = Arrays.copyOf(idOf, n);
        lengthOf = Arrays.copyOf(lengthOf, n);
        termsOf = Arrays.copyOf(termsOf, n);
      }
      int slot = slots++;
      idOf[slot] = id;
      lengthOf[slot] = tokens.size();
      termsOf[slot] = tf.keySet().toArray(new String[0]);
      for (Map.Entry<String, Integer> e : tf.entrySet()) {
        postings.computeIfAbsent(e.getKey(), x -> new Posting()).add(slot, e.getValue());
      }
      slotOf.put(id, slot);
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
      slotOf.clear();
      idOf = new String[16];
      lengthOf = new int[16];
      termsOf = new String[16][];
      slots = 0;
      totalLength = 0;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Number of documents. */
  public int size() {
    lock.readLock().lock();
    try {
      return slotOf.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** True when a document with this id is indexed. */
  public boolean contains(String id) {
    lock.readLock().lock();
    try {
      return slotOf.containsKey(id);
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
      int n = slotOf.size();
      if (n == 0) {
        return List.of();
      }
      double avgdl = Math.max(1e-9, (double) totalLength / n);
      double[] score = null;
      boolean[] hit = null;
      int[] touched = null;
      int touchedCount = 0;
      for (String term : terms) {
        Posting posting = postings.get(term);
        if (posting == null) {
          continue;
        }
        if (score == null) {
          score = new double[slots];
          hit = new boolean[slots];
          touched = new int[Math.min(slots, 64)];
        }
        int df = posting.live;
        double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        int[] ps = posting.slots;
        int[] tfs = posting.tfs;
        for (int i = 0, m = posting.size; i < m; i++) {
          int slot = ps[i];
          if (idOf[slot] == null) {
            continue; // a removed or replaced document
          }
          double tf = tfs[i];
          double dl = lengthOf[slot];
          double s = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl));
          if (hit[slot]) {
            score[slot] += s;
          } else {
            hit[slot] = true;
            score[slot] = s;
            if (touchedCount == touched.length) {
              touched = Arrays.copyOf(touched, Math.min(slots, touchedCount * 2));
            }
            touched[touchedCount++] = slot;
          }
        }
      }
      if (touchedCount == 0) {
        return List.of();
      }
      return topK(score, touched, touchedCount, k);
    } finally {
      lock.readLock().unlock();
    }
  }

  private List<ScoredId> topK(double[] score, int[] touched, int count, int k) {
    TopScored top = new TopScored(k);
    // the k-th best score so far: a document below it cannot enter, so it costs no ScoredId
    double[] kept = new double[Math.min(k, count)];
    int keptCount = 0;
    double floor = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < count; i++) {
      int slot = touched[i];
      double s = score[slot];
      if (s < floor) {
        continue;
      }
      top.offer(new ScoredId(idOf[slot], s));
      // track the floor as the smallest of the k largest scores offered (ties reach TopScored)
      if (keptCount < kept.length) {
        kept[keptCount++] = s;
        if (keptCount == kept.length && keptCount == k) {
          floor = min(kept);
        }
      } else if (keptCount == k && s > floor) {
        replaceMin(kept, s);
        floor = min(kept);
      }
    }
    return top.best();
  }

  private static double min(double[] v) {
    double m = Double.POSITIVE_INFINITY;
    for (double x : v) {
      m = Math.min(m, x);
    }
    return m;
  }

  private static void replaceMin(double[] v, double s) {
    int at = 0;
    for (int i = 1; i < v.length; i++) {
      if (v[i] < v[at]) {
        at = i;
      }
    }
    v[at] = s;
  }

  private void removeLocked(String id) {
    Integer slot = slotOf.remove(id);
    if (slot == null) {
      return;
    }
    for (String t : termsOf[slot]) {
      Posting posting = postings.get(t);
      if (posting != null && --posting.live == 0) {
        postings.remove(t);
      }
    }
    totalLength -= lengthOf[slot];
    idOf[slot] = null;
    termsOf[slot] = null;
    if (slots - slotOf.size() > Math.max(64, slotOf.size())) {
      compact();
    }
  }

  /** Renumbers the live documents into consecutive slots and drops dead postings. */
  private void compact() {
    int[] newSlot = new int[slots];
    int live = 0;
    for (int s = 0; s < slots; s++) {
      if (idOf[s] == null) {
        newSlot[s] = -1;
      } else {
        newSlot[s] = live;
        idOf[live] = idOf[s];
        lengthOf[live] = lengthOf[s];
        termsOf[live] = termsOf[s];
        live++;
      }
    }
    Arrays.fill(idOf, live, slots, null);
    Arrays.fill(termsOf, live, slots, null);
    slots = live;
    for (Posting p : postings.values()) {
      int w = 0;
      for (int i = 0; i < p.size; i++) {
        int s = newSlot[p.slots[i]];
        if (s >= 0) {
          p.slots[w] = s;
          p.tfs[w] = p.tfs[i];
          w++;
        }
      }
      p.size = w;
    }
    slotOf.replaceAll((id, s) -> newSlot[s]);
  }

  /** Slots of removed or replaced documents not compacted away yet (for tests). */
  int deadSlots() {
    lock.readLock().lock();
    try {
      return slots - slotOf.size();
    } finally {
      lock.readLock().unlock();
    }
  }
}
