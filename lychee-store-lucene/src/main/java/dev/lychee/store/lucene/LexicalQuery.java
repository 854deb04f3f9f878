package dev.lychee.store.lucene;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;

/**
 * Turns arbitrary user text into a BM25 query without a query parser: the text goes through the
 * same analyzer as the indexed field, and the distinct terms are OR-ed. Quotes, operators,
 * wildcards, brackets and colons are therefore just characters the tokenizer drops, so no input
 * can make the query fail to build.
 */
final class LexicalQuery {
  private LexicalQuery() {}

  /** The distinct analyzed terms of {@code text}, at most {@code maxTerms}, in first-seen order. */
  static Set<String> terms(Analyzer analyzer, String field, String text, int maxTerms) {
    Set<String> terms = new LinkedHashSet<>();
    if (text == null || text.isBlank()) {
      return terms;
    }
    try (TokenStream stream = analyzer.tokenStream(field, text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (terms.size() < maxTerms && stream.incrementToken()) {
        if (term.length() > 0) {
          terms.add(term.toString());
        }
      }
      stream.end();
    } catch (IOException e) {
      // analysis reads from a String; an IOException here is a bug, not bad input
      throw new UncheckedIOException(e);
    }
    return terms;
  }

  /** Makes the query that matches one term (see {@link SharedTermStates}). */
  @FunctionalInterface
  interface TermQueries {
    Query of(Term term) throws IOException;
  }

  /**
   * The scoring query OR-ing {@code terms} (from {@link #terms}) over {@code field}, restricted by
   * {@code filter}, each term's clause made by {@code queries}; empty when there is no term. The
   * filter is the first clause: Lucene asks a query's clauses for their segment scorers in clause
   * order and stops at the first required one that has none, so a segment without a document of
   * the filter is skipped before a terms enum is opened for any term there (round nineteen). A
   * filter scores nothing, so the order changes no score.
   */
  static Optional<Query> build(Set<String> terms, String field, Query filter, TermQueries queries)
      throws IOException {
    if (terms.isEmpty()) {
      return Optional.empty();
    }
    BooleanQuery.Builder should = new BooleanQuery.Builder();
    for (String t : terms) {
      should.add(queries.of(new Term(field, t)), BooleanClause.Occur.SHOULD);
    }
    return Optional.of(new BooleanQuery.Builder()
        .add(filter, BooleanClause.Occur.FILTER)
        .add(should.build(), BooleanClause.Occur.MUST)
        .build());
  }
}
