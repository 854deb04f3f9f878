package dev.lychee.store.postgres;

import dev.lychee.api.ScoredId;
import dev.lychee.core.store.TextTokenizer;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * Bridges user text and PostgreSQL full-text search without ever handing user text to a query
 * parser. Documents are indexed as {@code to_tsvector('simple', ...)} of the space-joined tokens of
 * {@link TextTokenizer}; a query is built from the same tokens, each one bound as a parameter of
 * its own {@code plainto_tsquery('simple', ?)} (which reads no operators at all) and the pieces
 * OR-ed with the {@code ||} operator; function words are left out of a query that holds other
 * words ({@link #of}). Quotes, {@code & | ! <->}, colons and the like are separators
 * to the tokenizer, so nothing the user typed can be read as syntax.
 */
final class TextQuery {
  /** Distinct query terms kept; longer questions only add cost. */
  static final int MAX_QUERY_TERMS = 64;
  /** Characters of a document kept for indexing; a tsvector must stay under 1 MB. */
  static final int MAX_DOCUMENT_CHARS = 400_000;

  private final List<String> terms;

  private TextQuery(List<String> terms) {
    this.terms = terms;
  }

  /**
   * The query for a user's text, or null when it holds no searchable term. Function words
   * ({@link Terms#STOP}: articles, auxiliaries, pronouns, question words) are left out when the
   * text holds any other word, and kept when it holds nothing else. Why (docs/defaults.md §3.3):
   * {@code ts_rank} weighs every matched term alike (no inverse document frequency), so a turn
   * holding "when", "did" and "a" outranked one holding the question's two names; and "when",
   * "did", "a" match about half of a conversation's turns, every one of which the server ranked
   * before it could keep the top k, so a search cost grew with the namespace.
   */
  static TextQuery of(String userText) {
    Set<String> distinct = new LinkedHashSet<>(TextTokenizer.tokens(userText));
    if (distinct.isEmpty()) {
      return null;
    }
    if (!Terms.STOP.containsAll(distinct)) {
      distinct.removeAll(Terms.STOP);
    }
    List<String> kept = new ArrayList<>(Math.min(distinct.size(), MAX_QUERY_TERMS));
    for (String t : distinct) {
      if (kept.size() == MAX_QUERY_TERMS) {
        break;
      }
      kept.add(t);
    }
    return new TextQuery(List.copyOf(kept));
  }

  /** The text put into {@code to_tsvector} for a document. */
  static String document(String text) {
    StringBuilder b = new StringBuilder();
    for (String t : TextTokenizer.tokens(text)) {
      if (b.length() + t.length() + 1 > MAX_DOCUMENT_CHARS) {
        break;
      }
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(t);
    }
    return b.toString();
  }

  List<String> terms() {
    return terms;
  }

  /**
   * A FROM item {@code (SELECT <tsquery> AS q) query} exposing the query as column {@code q}; its
   * parameters are named {@code :term0 .. :termN}.
   */
  String sql() {
    return sql("");
  }

  /** {@link #sql()} with parameters {@code :<prefix>term0 ..}, so that several fit one statement. */
  private String sql(String prefix) {
    StringBuilder b = new StringBuilder("(SELECT ");
    for (int i = 0; i < terms.size(); i++) {
      if (i > 0) {
        b.append(" || ");
      }
      b.append("plainto_tsquery('simple', :").append(prefix).append("term").append(i).append(')');
    }
    return b.append(" AS q) query").toString();
  }

  /** Binds the terms of {@link #sql()}. */
  <S extends org.jdbi.v3.core.statement.SqlStatement<S>> S bind(S statement) {
    return bind(statement, "");
  }

  private <S extends org.jdbi.v3.core.statement.SqlStatement<S>> S bind(S statement, String prefix) {
    for (int i = 0; i < terms.size(); i++) {
      statement.bind(prefix + "term" + i, terms.get(i));
    }
    return statement;
  }

  /**
   * A hit's {@code ts_rank}, a {@code real}, read as the float it is: the driver sends a statement's
   * first runs as text and later ones, once it prepares the statement on the server, in binary, and
   * read as a double the text form lost the float's last digits (0.06079271 instead of
   * 0.0607927106...), so one search scored a hit differently by how often it had run.
   */
  static double score(java.sql.ResultSet rs, String column) throws java.sql.SQLException {
    return rs.getFloat(column);
  }

  /**
   * Several searches of one table in one statement: for each query (null: no searchable term, no
   * hits) the same top {@code k} as the single search, {@code ORDER BY score DESC, hit LIMIT k} with hits compared in byte order ({@code COLLATE "C"}, whatever the database's collation, as {@link TextPostings} compares them),
   * run as one branch of a {@code UNION ALL}; the outer sort by query number and then by the same
   * keys restores each list's order. Why: recall searches every text variant of a route, and one
   * statement per variant cost a round trip each.
   *
   * @param table the table searched (its {@code namespace} and {@code tsv} columns)
   * @param hit the SQL expression of a hit's id
   */
  static List<List<ScoredId>> searchAll(Handle h, String table, String hit, String ns, List<TextQuery> queries,
      int k) {
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < queries.size(); i++) {
      out.add(new ArrayList<>());
      TextQuery q = queries.get(i);
      if (q == null) {
        continue;
      }
      sql.append(sql.length() == 0 ? "SELECT q_no, hit, score FROM (" : " UNION ALL ")
          .append("(SELECT ").append(i).append(" AS q_no, (").append(hit).append(") COLLATE \"C\" AS hit, ts_rank(tsv, q) AS score FROM ")
          .append(table).append(", ").append(q.sql("q" + i + "_"))
          .append(" WHERE namespace = :ns AND tsv @@ q ORDER BY score DESC, hit LIMIT :k)");
    }
    if (sql.length() == 0) {
      return out;
    }
    sql.append(") hits ORDER BY q_no, score DESC, hit");
    Query statement = h.createQuery(sql.toString()).bind("ns", ns).bind("k", k);
    for (int i = 0; i < queries.size(); i++) {
      if (queries.get(i) != null) {
        queries.get(i).bind(statement, "q" + i + "_");
      }
    }
    statement.map((rs, ctx) -> Map.entry(rs.getInt(1), new ScoredId(rs.getString(2), score(rs, "score"))))
        .forEach(e -> out.get(e.getKey()).add(e.getValue()));
    return out;
  }
}
