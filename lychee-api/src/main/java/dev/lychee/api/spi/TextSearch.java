package dev.lychee.api.spi;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.List;

/** Lexical (BM25-style) search over the stored turns or records of one namespace. */
public interface TextSearch {

  /**
   * BM25-style search over turns or records. Any user text is accepted: quotes, operators,
   * wildcards, parentheses, colons, non-Latin scripts and empty strings never throw; a query with
   * no searchable term returns an empty list.
   *
   * @return at most {@code k} hits, best first
   * @throws IllegalArgumentException if {@code k <= 0}
   */
  List<ScoredId> searchText(String namespace, TextField field, String query, int k);

  /**
   * Several searches of one field: element {@code i} of the result is exactly what {@link
   * #searchText} returns for {@code queries.get(i)}. Recall searches every text variant of a route,
   * so a store behind a network can answer them all in one round trip; the default runs one search
   * per query.
   *
   * @return one hit list per query, in query order
   * @throws IllegalArgumentException if {@code k <= 0}
   */
  default List<List<ScoredId>> searchTexts(String namespace, TextField field, List<String> queries, int k) {
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    for (String q : queries) {
      out.add(searchText(namespace, field, q, k));
    }
    return out;
  }
}
