package dev.lychee.store.sqlite;

import dev.lychee.api.ScoredId;
import dev.lychee.core.score.TopScored;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One namespace's documents of an FTS5 table held as primitive postings, scored with FTS5's
 * {@code bm25()} formula over {@link Fts5Statistics}: a slot per document (its hit id and token
 * count) and per term the (slot, term frequency) pairs. Documents are only added; one that is
 * rewritten or dropped is {@linkplain #remove removed}, which leaves its postings in place but
 * marks its slot dead (a negative length), so that a rewrite costs one new slot instead of a
 * search through every posting list. Not thread-safe: the owner locks.
 */
final class Bm25Postings {
  /** FTS5's bm25() constants (fts5_aux.c). */
  private static final double K1 = 1.2;
  private static final double B = 0.75;

  private int size;
  private int dead;
  private String[] hits = new String[16];
  private int[] lengths = new int[16];
  private final Map<String, Posting> terms = new HashMap<>();
  /**
   * The terms with a character outside ASCII of every document added since the last {@link
   * #clear}, dead ones included: the only tokens FTS5's {@code unicode61} may split or fold
   * otherwise than {@code TextTokenizer} did ({@link #mayHide}).
   */
  private final Set<String> nonAscii = new HashSet<>();

  /** Empties the postings. */
  void clear() {
    size = 0;
    dead = 0;
    hits = new String[16];
    lengths = new int[16];
    terms.clear();
    nonAscii.clear();
  }

  /** Slots ever added, dead ones included. */
  int slots() {
    return size;
  }

  /** Slots removed since the last {@link #clear}. */
  int deadSlots() {
    return dead;
  }

  /** Documents held and not removed. */
  int liveDocuments() {
    return size - dead;
  }

  /** How many live documents hold {@code term}. */
  int documentsWith(String term) {
    Posting posting = terms.get(term);
    if (posting == null) {
      return 0;
    }
    if (dead == 0) {
      return posting.size;
    }
    int n = 0;
    for (int i = 0; i < posting.size; i++) {
      if (lengths[posting.slots[i]] >= 0) {
        n++;
      }
    }
    return n;
  }

  /**
   * Whether FTS5 may have indexed {@code asciiTerm} (made of ASCII letters and digits) in a document
   * where these postings do not hold it. Each document went to FTS5 as its {@code TextTokenizer}
   * tokens joined by spaces, and {@code unicode61} leaves a token of ASCII letters and digits as it
   * is; a token with other characters it may split (on a combining mark, say) or fold (U+017F to
   * {@code s}), one code point to at most one, so a piece it makes of such a token is as long as
   * a stretch of the token. True when some such token has a stretch as long as the term that
   * equals it wherever the stretch is ASCII (a character outside ASCII may become anything).
   */
  boolean mayHide(String asciiTerm) {
    int n = asciiTerm.length();
    for (String token : nonAscii) {
      int[] cps = token.codePoints().toArray();
      for (int start = 0; start + n <= cps.length; start++) {
        int i = 0;
        while (i < n && (cps[start + i] > 0x7f || cps[start + i] == asciiTerm.charAt(i))) {
          i++;
        }
        if (i == n) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Adds a document under {@code hit}, as the tokens FTS5 was given for it; returns its slot.
   */
  int add(String hit, List<String> tokens) {
    if (size == hits.length) {
      hits = Arrays.copyOf(hits, size * 2);
      lengths = Arrays.copyOf(lengths, size * 2);
    }
    int slot = size++;
    hits[slot] = hit;
    lengths[slot] = tokens.size();
    Map<String, Integer> tf = new HashMap<>();
    for (String tok : tokens) {
      tf.merge(tok, 1, Integer::sum);
    }
    tf.forEach((term, n) -> {
      terms.computeIfAbsent(term, x -> new Posting()).add(slot, n);
      if (!isAscii(term)) {
        nonAscii.add(term);
      }
    });
    return slot;
  }

  /** Whether every character of {@code s} is ASCII. */
  static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** Takes a slot out of every later search (its document was rewritten or deleted). */
  void remove(int slot) {
    if (lengths[slot] >= 0) {
      lengths[slot] = -1;
      dead++;
    }
  }

  /**
   * The {@code k} best live documents for the query terms (in the MATCH expression's order), best
   * first, with FTS5's bm25 score negated; ties by hit id, as an {@code ORDER BY score DESC, hit}
   * query breaks them.
   */
  List<ScoredId> search(List<String> query, Fts5Statistics.Snapshot s, int k) {
    double[] score = null;
    int[] touched = null;
    int touchedCount = 0;
    for (String term : query) {
      Posting posting = terms.get(term);
      if (posting == null) {
        continue;
      }
      if (score == null) {
        score = new double[size];
        touched = new int[Math.min(size, 64)];
      }
      double idf = s.idf(term);
      for (int i = 0; i < posting.size; i++) {
        int slot = posting.slots[i];
        int length = lengths[slot];
        if (length < 0) {
          continue; // a removed document
        }
        double freq = posting.tfs[i];
        // fts5Bm25Function's sum, term by term in query order (a row without the term adds 0.0)
        double add = idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * length / s.avgdl())));
        if (score[slot] == 0.0) { // every add is positive, so 0.0 means not touched yet
          if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, Math.min(size, touched.length * 2));
          }
          touched[touchedCount++] = slot;
        }
        score[slot] += add;
      }
    }
    if (touchedCount == 0) {
      return List.of();
    }
    return top(score, touched, touchedCount, k);
  }

  /**
   * The {@code k} best touched slots as hits, in {@link TopScored#BEST_FIRST} order (score
   * descending, then id). A heap of slots, so that only the {@code k} hits returned become
   * objects: at scale 20 a question's words touch thousands of documents, and a {@link ScoredId}
   * for each (with its id check) was most of the search's time.
   */
  private List<ScoredId> top(double[] score, int[] touched, int touchedCount, int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
    int[] heap = new int[Math.min(k, touchedCount)];
    int n = 0;
    for (int i = 0; i < touchedCount; i++) {
      int slot = touched[i];
      if (n < heap.length) {
        heap[n] = slot;
        siftUp(heap, n++, score);
      } else if (worse(heap[0], slot, score)) {
        heap[0] = slot;
        siftDown(heap, n, score);
      }
    }
    List<ScoredId> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new ScoredId(hits[heap[i]], score[heap[i]]));
    }
    out.sort(TopScored.BEST_FIRST);
    return out;
  }

  /** Whether slot {@code a} ranks below slot {@code b}: a lower score, or the same and a larger id. */
  private boolean worse(int a, int b, double[] score) {
    int c = Double.compare(score[a], score[b]);
    return c < 0 || (c == 0 && hits[a].compareTo(hits[b]) > 0);
  }

  // a min-heap by rank: the root is the worst slot kept
  private void siftUp(int[] heap, int i, double[] score) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!worse(heap[i], heap[parent], score)) {
        return;
      }
      int t = heap[i];
      heap[i] = heap[parent];
      heap[parent] = t;
      i = parent;
    }
  }

  private void siftDown(int[] heap, int n, double[] score) {
    int i = 0;
    while (true) {
      int l = 2 * i + 1;
      if (l >= n) {
        return;
      }
      int r = l + 1;
      int worst = r < n && worse(heap[r], heap[l], score) ? r : l;
      if (!worse(heap[worst], heap[i], score)) {
        return;
      }
      int t = heap[i];
      heap[i] = heap[worst];
      heap[worst] = t;
      i = worst;
    }
  }

  /** One term's documents: parallel arrays of slots and term frequencies. */
  private static final class Posting {
    int[] slots = new int[4];
    int[] tfs = new int[4];
    int size;

    void add(int slot, int tf) {
      if (size == slots.length) {
        slots = Arrays.copyOf(slots, size * 2);
        tfs = Arrays.copyOf(tfs, size * 2);
      }
      slots[size] = slot;
      tfs[size] = tf;
      size++;
    }
  }
}
