package dev.lychee.store.sqlite;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;

/**
 * The table-wide numbers FTS5's {@code bm25()} ranks with, read from one FTS5 table itself: the
 * row count and token total (the table's "averages" record in {@code <table>_data}) and, per term,
 * the number of rows that hold it. They span every namespace of the table, as FTS5's do. Kept per
 * data version; a term's count is found the first time a search asks for it at that version.
 *
 * <p>A term's count comes from the postings the searches hold ({@link Copy}) when those cover the
 * table: every held namespace caught up at the snapshot's version, their live documents as many
 * as the table's rows (a subset of the rows as large as all of them is all of them), and the term
 * made of ASCII letters and digits that no held token outside ASCII may hide ({@link
 * Bm25Postings#mayHide}). Then it is the number FTS5 would count, without a statement; else it is
 * a {@code MATCH} count, which walks the term's whole posting list in FTS5 (5.8 per x20 recall on
 * the early-channel thread, measurements §6, round eighteen; none since round twenty when one
 * namespace fills the file, as in {@code eval speed}). Thread-safe; a copy is read under its own
 * monitor, one at a time.
 */
final class Fts5Statistics {
  /** The rowid of the FTS5 "averages" record in {@code %_data}: row count, then tokens per column. */
  private static final long AVERAGES_ROWID = 1;

  private final SqliteDatabase db;
  private final String averagesSql;
  private final String countSql;
  private final Supplier<Collection<? extends Copy>> held;
  private volatile Snapshot current;

  /**
   * One namespace's documents of the table as a search holds them: the postings and the data
   * version they were caught up at; read under the copy's own monitor.
   */
  abstract static class Copy {
    /** The namespace's documents as held. */
    final Bm25Postings postings = new Bm25Postings();
    /** The data version the postings were caught up at. */
    long version = Long.MIN_VALUE;
  }

  /**
   * Statistics of FTS5 table {@code table} (a fixed name of the schema, never user text) whose
   * searches hold the namespaces' copies {@code held} returns.
   */
  Fts5Statistics(SqliteDatabase db, String table, Supplier<Collection<? extends Copy>> held) {
    this.db = db;
    this.averagesSql = "SELECT block FROM " + table + "_data WHERE id = ?";
    this.countSql = "SELECT count(*) FROM " + table + " WHERE " + table + " MATCH ?";
    this.held = held;
  }

  /** The statistics at {@code version}: rows and average length; document frequencies as {@link #count}ed. */
  Snapshot at(long version) {
    Snapshot s = current;
    if (s == null || s.version != version) {
      s = db.read(h -> read(h, version));
      current = s;
    }
    return s;
  }

  /**
   * Finds the document frequency of every one of {@code terms} in {@code s} that it lacks: from the
   * held copies when they cover the table at the snapshot's version, else with {@code MATCH} counts.
   */
  void count(Snapshot s, List<String> terms) {
    List<String> missing = terms.stream().filter(t -> !s.docs.containsKey(t)).toList();
    if (missing.isEmpty()) {
      return;
    }
    long[] counts = fromCopies(s, missing);
    List<String> left = new ArrayList<>();
    for (int i = 0; i < missing.size(); i++) {
      if (counts != null && counts[i] >= 0) {
        s.docs.put(missing.get(i), counts[i]);
      } else {
        left.add(missing.get(i));
      }
    }
    if (left.isEmpty()) {
      return;
    }
    db.read(h -> {
      for (String t : left) {
        long n = h.createQuery(countSql).bind(0, "\"" + t.replace("\"", "\"\"") + "\"")
            .mapTo(Long.class).one();
        s.docs.put(t, n);
      }
      return null;
    });
  }

  /**
   * The terms' document frequencies in the held copies, -1 for a term whose count there may differ
   * from FTS5's (not plain ASCII, or hidden in a held token outside ASCII: a one-letter term is
   * whenever a held token has a character outside ASCII); null when the copies do not cover the
   * table.
   */
  private long[] fromCopies(Snapshot s, List<String> terms) {
    long[] counts = new long[terms.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = asciiWord(terms.get(i)) ? 0 : -1;
    }
    long documents = 0;
    for (Copy c : held.get()) {
      synchronized (c) {
        if (c.version != s.version) {
          return null;
        }
        Bm25Postings p = c.postings;
        documents += p.liveDocuments();
        for (int i = 0; i < counts.length; i++) {
          if (counts[i] >= 0) {
            counts[i] = p.mayHide(terms.get(i)) ? -1 : counts[i] + p.documentsWith(terms.get(i));
          }
        }
      }
    }
    return documents == s.rows ? counts : null;
  }

  /** Whether {@code t} is a non-empty run of lower-case ASCII letters and digits. */
  private static boolean asciiWord(String t) {
    if (t.isEmpty()) {
      return false;
    }
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  private Snapshot read(Handle h, long version) {
    byte[] block = h.createQuery(averagesSql).bind(0, AVERAGES_ROWID).mapTo(byte[].class).findOne().orElse(null);
    if (block == null || block.length == 0) {
      return new Snapshot(version, 0, 0);
    }
    int[] at = {0};
    long rows = varint(block, at);
    long tokens = varint(block, at);
    return new Snapshot(version, rows, tokens);
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
  static final class Snapshot {
    private final long version;
    private final long rows;
    private final double avgdl;
    private final Map<String, Long> docs = new ConcurrentHashMap<>();

    Snapshot(long version, long rows, long tokens) {
      this.version = version;
      this.rows = rows;
      this.avgdl = rows > 0 ? (double) tokens / (double) rows : 0;
    }

    /** Rows in the whole table. */
    long rows() {
      return rows;
    }

    /** Tokens per row over the whole table. */
    double avgdl() {
      return avgdl;
    }

    /** The document frequency found for {@code term}; null before a search counted it. */
    Long documentsWith(String term) {
      return docs.get(term);
    }

    /** fts5Bm25GetData's idf: {@code log((N - n + 0.5) / (n + 0.5))}, at least 1e-6. */
    double idf(String term) {
      long n = docs.getOrDefault(term, 0L);
      double idf = Math.log((rows - n + 0.5) / (n + 0.5));
      return idf <= 0.0 ? 1e-6 : idf;
    }
  }
}
