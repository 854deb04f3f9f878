package dev.lychee.store.postgres;

import dev.lychee.core.store.TextTokenizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Bridges user text and PostgreSQL full-text search without ever handing user text to a query
 * parser. Documents are indexed as {@code to_tsvector('simple', ...)} of the space-joined tokens of
 * {@link TextTokenizer}; a query is built from the same tokens, each one bound as a parameter of
 * its own {@code plainto_tsquery('simple', ?)} (which reads no operators at all) and the pieces
 * OR-ed with the {@code ||} operator. Quotes, {@code & | ! <->}, colons and the like are separators
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

  /** The query for a user's text, or null when it holds no searchable term. */
  static TextQuery of(String userText) {
    Set<String> distinct = new LinkedHashSet<>(TextTokenizer.tokens(userText));
    if (distinct.isEmpty()) {
      return null;
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
    StringBuilder b = new StringBuilder("(SELECT ");
    for (int i = 0; i < terms.size(); i++) {
      if (i > 0) {
        b.append(" || ");
      }
      b.append("plainto_tsquery('simple', :term").append(i).append(')');
    }
    return b.append(" AS q) query").toString();
  }

  /** Binds the terms of {@link #sql()}. */
  <S extends org.jdbi.v3.core.statement.SqlStatement<S>> S bind(S statement) {
    for (int i = 0; i < terms.size(); i++) {
      statement.bind("term" + i, terms.get(i));
    }
    return statement;
  }
}
