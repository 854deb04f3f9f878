package dev.lychee.store.sqlite;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;

/**
 * The table-wide numbers FTS5's {@code bm25()} ranks with, read from one FTS5 table itself: the
 * row count and token total (the table's "averages" record in {@code <table>_data}) and, per term,
 * the number of rows that hold it (a {@code MATCH} count). They span every namespace of the table,
 * as FTS5's do. Kept per data version; a term's count is read the first time a search asks for it
 * at that version. Thread-safe.
 */
final class Fts5Statistics {
  /** The rowid of the FTS5 "averages" record in {@code %_data}: row count, then tokens per column. */
  private static final long AVERAGES_ROWID = 1;

  private final SqliteDatabase db;
  private final String averagesSql;
  private final String countSql;
  private volatile Snapshot current;

  /** Statistics of FTS5 table {@code table} (a fixed name of the schema, never user text). */
  Fts5Statistics(SqliteDatabase db, String table) {
    this.db = db;
    this.averagesSql = "SELECT block FROM " + table + "_data WHERE id = ?";
    this.countSql = "SELECT count(*) FROM " + table + " WHERE " + table + " MATCH ?";
  }

  /** The statistics at {@code version}, with the document frequency of every one of {@code terms}. */
  Snapshot at(long version, List<String> terms) {
    Snapshot s = current;
    if (s == null || s.version != version) {
      s = db.read(h -> read(h, version));
      current = s;
    }
    Snapshot snapshot = s;
    List<String> missing = terms.stream().filter(t -> !snapshot.docs.containsKey(t)).toList();
    if (!missing.isEmpty()) {
      db.read(h -> {
        for (String t : missing) {
          long n = h.createQuery(countSql).bind(0, "\"" + t.replace("\"", "\"\"") + "\"")
              .mapTo(Long.class).one();
          snapshot.docs.put(t, n);
        }
        return null;
      });
    }
    return s;
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

    /** fts5Bm25GetData's idf: {@code log((N - n + 0.5) / (n + 0.5))}, at least 1e-6. */
    double idf(String term) {
      long n = docs.getOrDefault(term, 0L);
      double idf = Math.log((rows - n + 0.5) / (n + 0.5));
      return idf <= 0.0 ? 1e-6 : idf;
    }
  }
}
