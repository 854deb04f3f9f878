package dev.lychee.store.sqlite;

import dev.lychee.core.store.TextTokenizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Bridges user text and FTS5. Documents are indexed as the space-joined tokens of
 * {@link TextTokenizer}, and queries are built from the same tokens, each one double-quoted (so
 * FTS5 reads it as a plain string, never as syntax) and OR-ed. Nothing the user typed reaches FTS5
 * except letters, digits and combining marks inside quotes, so a query can never fail to parse.
 */
final class LexicalText {
  /** Distinct query terms kept; longer questions do not add ranking signal, only cost. */
  static final int MAX_QUERY_TERMS = 64;

  private LexicalText() {}

  /** The text put into the FTS table for a document. */
  static String document(String text) {
    return String.join(" ", TextTokenizer.tokens(text));
  }

  /** A safe FTS5 MATCH expression, or null when the text has no searchable term. */
  static String query(String userText) {
    Set<String> terms = new LinkedHashSet<>(TextTokenizer.tokens(userText));
    if (terms.isEmpty()) {
      return null;
    }
    StringBuilder q = new StringBuilder();
    int n = 0;
    for (String t : terms) {
      if (n++ == MAX_QUERY_TERMS) {
        break;
      }
      if (q.length() > 0) {
        q.append(" OR ");
      }
      // tokens hold no quotes, but double any anyway so that the expression stays well formed
      q.append('"').append(t.replace("\"", "\"\"")).append('"');
    }
    return q.toString();
  }

  /** The terms {@link #query} OR-s together, in its order (at most {@link #MAX_QUERY_TERMS}). */
  static List<String> queryTerms(String userText) {
    return List.copyOf(new LinkedHashSet<>(TextTokenizer.tokens(userText))).stream().limit(MAX_QUERY_TERMS).toList();
  }

  static List<String> terms(String userText) {
    return List.copyOf(new LinkedHashSet<>(TextTokenizer.tokens(userText)));
  }
}
