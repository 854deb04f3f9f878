package dev.lychee.store.sqlite;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.core.score.TopScored;
import dev.lychee.core.store.TextTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;

/**
 * The turn search of {@link FtsSearch} with FTS5's own {@code bm25()} ranking, scored in Java.
 *
 * <p>FTS5 scores every row that holds any of the query's words, through its auxiliary-function
 * interface, before it sorts them; a question's function words ({@code it}, {@code and},
 * {@code the}) are in most turns, so that cost grows with the whole namespace (2.8 ms per query
 * at 419 turns, 64.8 ms at 8,380). Here the namespace's turns are held as primitive postings
 * (term frequencies and document lengths), kept up to date from the append-only turn log, and
 * scored with FTS5's formula and FTS5's own statistics, read from the FTS table itself: the row
 * count and token total of the whole table ({@code turns_fts_data}'s averages record) and, per
 * term, the number of rows that hold it (a {@code MATCH} count). The sum runs over the query's
 * terms in FTS5's order, so a row's score is the one {@code bm25()} gives up to the last bit of
 * the logarithm; ties are broken by hit id, as the SQL query does.
 *
 * <p>A document is the {@link LexicalText#document} of the turn's content, the text the FTS table
 * was given, tokenised the same way. Thread-safe: one lock per namespace.
 */
final class TurnBm25 {
  /** FTS5's bm25() constants (fts5_aux.c). */
  private static final double K1 = 1.2;
  private static final double B = 0.75;
  /** The rowid of the FTS5 "averages" record in {@code %_data}: row count, then tokens per column. */
  private static final long AVERAGES_ROWID = 1;

  private final SqliteDatabase db;
  private final Map<String, Postings> namespaces = new ConcurrentHashMap<>();
  private volatile Stats stats;

  TurnBm25(SqliteDatabase db) {
    this.db = db;
  }

  /**
   * The {@code k} best turns of the namespace for the query terms (in {@link LexicalText#query}'s
   * order), best first, as {@code 'episode:<session>:<idx>'} ids with FTS5's bm25 score negated.
   */
  List<ScoredId> search(String namespace, List<String> terms, int k) {
    long version = db.dataVersion();
    Stats s = stats(version, terms);
    if (s.rows <= 0) {
      return List.of();
    }
    Postings p = namespaces.computeIfAbsent(namespace, Postings::new);
    synchronized (p) {
      p.refresh(db, version);
      return p.search(terms, s, k);
    }
  }

  /** The table-wide statistics at {@code version}, with the document frequency of every term. */
  private Stats stats(long version, List<String> terms) {
    Stats s = stats;
    if (s == null || s.version != version) {
      s = db.read(h -> readStats(h, version));
      stats = s;
    }
    Stats current = s;
    List<String> missing = terms.stream().filter(t -> !current.docs.containsKey(t)).toList();
    if (!missing.isEmpty()) {
      db.read(h -> {
        for (String t : missing) {
          long n = h.createQuery("SELECT count(*) FROM turns_fts WHERE turns_fts MATCH ?")
              .bind(0, "\"" + t.replace("\"", "\"\"") + "\"").mapTo(Long.class).one();
          current.docs.put(t, n);
        }
        return null;
      });
    }
    return s;
  }

  private static Stats readStats(Handle h, long version) {
    byte[] block = h.createQuery("SELECT block FROM turns_fts_data WHERE id = ?").bind(0, AVERAGES_ROWID)
        .mapTo(byte[].class).findOne().orElse(null);
    if (block == null || block.length == 0) {
      return new Stats(version, 0, 0);
    }
    int[] at = {0};
    long rows = varint(block, at);
    long tokens = varint(block, at);
    return new Stats(version, rows, tokens);
  }

  /** SQLite's (and FTS5's) variable-length integer: big-endian 7-bit groups, a ninth byte of 8. */
  static long varint(byte[] b, int[] at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      int c = b[at[0]++] & 0xff;
      v = (v << 7) | (c & 0x7f);
      if ((c & 0x80) == 0) {
        return v;
      }
    }
    return (v << 8) | (b[at[0]++] & 0xff);
  }

  /** FTS5's table-wide numbers at one data version; document frequencies are filled as asked. */
  private static final class Stats {
    final long version;
    final long rows;
    final double avgdl;
    final Map<String, Long> docs = new ConcurrentHashMap<>();

    Stats(long version, long rows, long tokens) {
      this.version = version;
      this.rows = rows;
      this.avgdl = rows > 0 ? (double) tokens / (double) rows : 0;
    }

    /** fts5Bm25GetData's idf: {@code log((N - n + 0.5) / (n + 0.5))}, at least 1e-6. */
    double idf(String term) {
      long n = docs.getOrDefault(term, 0L);
      double idf = Math.log((rows - n + 0.5) / (n + 0.5));
      return idf <= 0.0 ? 1e-6 : idf;
    }
  }

  /** One namespace's turns: a slot per turn, its hit id and length, and per term (slot, tf) pairs. */
  private static final class Postings {
    private final String namespace;
    private long version = Long.MIN_VALUE;
    private long maxRowid;
    /** The namespace's deletion count (schema V2) the postings were read at. */
    private long deletions;
    private int size;
    private String[] hits = new String[16];
    private int[] lengths = new int[16];
    private final Map<String, Posting> terms = new HashMap<>();

    Postings(String namespace) {
      this.namespace = namespace;
    }

    /**
     * Adds the turns stored since the last look (turns are append-only, and a new row's rowid is
     * above every live one); a namespace that lost turns (forgotten, as its deletion count in
     * {@code turn_deletions} shows, even when as many turns came after) is read again from
     * scratch.
     */
    void refresh(SqliteDatabase db, long now) {
      if (now == version) {
        return;
      }
      db.read(h -> {
        long count = h.createQuery("SELECT count(*) FROM turns WHERE namespace = ?").bind(0, namespace)
            .mapTo(Long.class).one();
        long deleted = h.createQuery("SELECT deletions FROM turn_deletions WHERE namespace = ?")
            .bind(0, namespace).mapTo(Long.class).findOne().orElse(0L);
        if (deleted != deletions || count < size) {
          // turns were forgotten (here or by another process): a rowid may have been reused
          clear();
          deletions = deleted;
        }
        if (count != size) {
          readAfter(h, maxRowid);
          if (size != count) {
            // a turn below the last rowid seen (not expected): read everything again
            clear();
            readAfter(h, Long.MIN_VALUE);
          }
        }
        return null;
      });
      version = now;
    }

    /** Adds the namespace's turns stored above {@code rowid}, in storage order. */
    private void readAfter(Handle h, long rowid) {
      h.createQuery("SELECT rowid, " + Rows.TURN_COLUMNS + " FROM turns WHERE namespace = ? AND rowid > ?"
              + " ORDER BY rowid")
          .bind(0, namespace).bind(1, rowid)
          .map((rs, ctx) -> {
            maxRowid = Math.max(maxRowid, rs.getLong("rowid"));
            return Rows.turn(rs, ctx);
          })
          .forEach(this::add);
    }

    private void clear() {
      size = 0;
      maxRowid = 0;
      hits = new String[16];
      lengths = new int[16];
      terms.clear();
    }

    private void add(RawTurn t) {
      if (size == hits.length) {
        hits = Arrays.copyOf(hits, size * 2);
        lengths = Arrays.copyOf(lengths, size * 2);
      }
      int slot = size++;
      hits[slot] = t.id();
      List<String> tokens = TextTokenizer.tokens(t.content());
      lengths[slot] = tokens.size();
      Map<String, Integer> tf = new HashMap<>();
      for (String tok : tokens) {
        tf.merge(tok, 1, Integer::sum);
      }
      tf.forEach((term, n) -> terms.computeIfAbsent(term, x -> new Posting()).add(slot, n));
    }

    List<ScoredId> search(List<String> query, Stats s, int k) {
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
          double freq = posting.tfs[i];
          double d = lengths[slot];
          // fts5Bm25Function's sum, term by term in query order (a row without the term adds 0.0)
          double add = idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * d / s.avgdl)));
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
     * objects: at scale 20 a question's words touch thousands of turns, and a {@link ScoredId}
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
  }

  /** One term's turns: parallel arrays of slots and term frequencies. */
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
