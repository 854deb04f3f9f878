package dev.lychee.server.api;

/**
 * The body of {@code POST .../recall} and {@code .../answer}.
 *
 * @param question the question, not blank
 * @param k how many evidence items (1..200); optional
 * @param tokenBudget the most tokens the returned evidence may take as the answer prompt shows it
 *     (o200k count, {@value #MIN_TOKEN_BUDGET}..{@value #MAX_TOKEN_BUDGET}); optional, with or instead
 *     of k (which then is the least search depth)
 * @param askedAt the time relative dates in the question refer to; optional
 */
public record QueryRequest(String question, Integer k, Integer tokenBudget, String askedAt) {
  public static final int MAX_K = 200;
  /** The library's smallest budget: one short item with its frame. */
  public static final int MIN_TOKEN_BUDGET = dev.lychee.api.Question.MIN_TOKEN_BUDGET;
  /** The library's largest budget: the HTTP API and MCP take every budget a {@link dev.lychee.api.Question} takes. */
  public static final int MAX_TOKEN_BUDGET = dev.lychee.api.Question.MAX_TOKEN_BUDGET;

  public QueryRequest {
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("'question' must not be blank");
    }
    if (k != null && (k < 1 || k > MAX_K)) {
      throw new IllegalArgumentException("'k' must be between 1 and " + MAX_K + ": " + k);
    }
    if (tokenBudget != null && (tokenBudget < MIN_TOKEN_BUDGET || tokenBudget > MAX_TOKEN_BUDGET)) {
      throw new IllegalArgumentException("'token_budget' must be between " + MIN_TOKEN_BUDGET + " and " + MAX_TOKEN_BUDGET
          + " tokens: " + tokenBudget);
    }
    WireTimes.parse("asked_at", askedAt);
  }
}
