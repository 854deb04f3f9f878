package dev.lychee.store.sqlite;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.VersionedCache;
import java.util.List;

/**
 * Lexical search on the FTS5 shadows of turns and records, ranked by {@link TurnBm25} and
 * {@link RecordBm25} (FTS5's bm25 over FTS5's statistics, scored in Java; the SQL queries here are
 * what they reproduce, kept for their tests). Queries are built by
 * {@link LexicalText}, so user syntax never reaches FTS5. The FTS statistics (document count,
 * average length) are shared by all namespaces; the hits are not.
 */
final class FtsSearch {
  static final String TURNS =
      "SELECT 'episode:' || t.session || ':' || t.idx AS hit, -bm25(turns_fts) AS score"
          + " FROM turns_fts JOIN turns t ON t.rowid = turns_fts.rowid"
          + " WHERE turns_fts MATCH :q AND t.namespace = :ns ORDER BY score DESC, hit LIMIT :k";
  static final String RECORDS =
      "SELECT r.id AS hit, -bm25(records_fts) AS score"
          + " FROM records_fts JOIN records r ON r.seq = records_fts.rowid"
          + " WHERE records_fts MATCH :q AND r.namespace = :ns ORDER BY score DESC, hit LIMIT :k";

  private final CachedReads reads;
  private final TurnBm25 turns;
  private final RecordBm25 records;

  FtsSearch(CachedReads reads, TurnBm25 turns, RecordBm25 records) {
    this.reads = reads;
    this.turns = turns;
    this.records = records;
  }

  /** Routes of one question repeat their variants, so identical searches are cached. */
  List<ScoredId> search(String namespace, TextField field, String query, int k) {
    String match = LexicalText.query(query);
    if (match == null) {
      return List.of();
    }
    if (field == TextField.TURNS) {
      return reads.cached(new VersionedCache.Key('s', namespace, List.of(field, match, k)),
          () -> List.copyOf(turns.search(namespace, LexicalText.queryTerms(query), k)));
    }
    return reads.cached(new VersionedCache.Key('s', namespace, List.of(field, match, k)),
        () -> List.copyOf(records.search(namespace, LexicalText.queryTerms(query), k)));
  }

  /** The search as FTS5 alone runs it ({@code TURNS} and {@code RECORDS} are what the Java rankings reproduce). */
  List<ScoredId> sql(String namespace, String sql, String match, int k) {
    return reads.db().read(h -> h.createQuery(sql).bind("q", match).bind("ns", namespace)
        .bind("k", k).map((rs, ctx) -> new ScoredId(rs.getString("hit"), rs.getDouble("score"))).list());
  }
}
