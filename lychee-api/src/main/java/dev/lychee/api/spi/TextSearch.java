package dev.lychee.api.spi;

import dev.lychee.api.ScoredId;
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
}
