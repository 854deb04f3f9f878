package dev.lychee.api.spi;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import java.util.Map;
import java.util.Objects;

/**
 * What every recall stage may read about the question being answered.
 *
 * @param question the question (its namespace scopes every read)
 * @param plan the plan being executed
 * @param k the effective evidence depth
 * @param queryVectors query-side embeddings of every query of every route, computed once per
 *     question in one batch, keyed by the exact query string
 */
public record RecallContext(Question question, RecallPlan plan, int k, Map<String, float[]> queryVectors) {

  public RecallContext {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(plan, "plan");
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
    queryVectors = Map.copyOf(queryVectors);
  }

  public String namespace() {
    return question.namespace();
  }

  /**
   * The embedding of one query.
   *
   * @throws IllegalArgumentException if the query was not embedded for this context
   */
  public float[] vector(String query) {
    float[] v = queryVectors.get(query);
    if (v == null) {
      throw new IllegalArgumentException("no query vector for '" + query + "'");
    }
    return v;
  }
}
