package dev.lychee.server.api;

/**
 * The body of {@code POST .../recall} and {@code .../answer}.
 *
 * @param question the question, not blank
 * @param k how many evidence items (1..200); optional
 * @param tokenBudget the most evidence tokens to return (o200k count, 1..100000); optional, instead of or with k
 * @param askedAt the time relative dates in the question refer to; optional
 */
public record QueryRequest(String question, Integer k, Integer tokenBudget, String askedAt) {
  public static final int MAX_K = 200;
  public static final int MAX_TOKEN_BUDGET = 100_000;

  public QueryRequest {
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("'question' must not be blank");
    }
    if (k != null && (k < 1 || k > MAX_K)) {
      throw new IllegalArgumentException("'k' must be between 1 and " + MAX_K + ": " + k);
    }
    if (tokenBudget != null && (tokenBudget < 1 || tokenBudget > MAX_TOKEN_BUDGET)) {
      throw new IllegalArgumentException("'token_budget' must be between 1 and " + MAX_TOKEN_BUDGET + ": " + tokenBudget);
    }
    WireTimes.parse("asked_at", askedAt);
  }
}
