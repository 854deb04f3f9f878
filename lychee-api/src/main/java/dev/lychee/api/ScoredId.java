package dev.lychee.api;

/**
 * A search hit: an id and its score (for vector search: the cosine similarity of unit vectors;
 * for lexical search: the engine's relevance score).
 */
public record ScoredId(String id, double score) {
  public ScoredId {
    Checks.nonBlank(id, "id");
  }
}
