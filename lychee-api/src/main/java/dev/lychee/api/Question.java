package dev.lychee.api;

import java.time.LocalDateTime;

/**
 * A question asked of one namespace's memory.
 *
 * <p>Without a token budget, recall returns at most {@code k} evidence items. With one
 * ({@link #withTokenBudget(int)}), the evidence is chosen to fit the budget instead: selection fills
 * it with the most new evidence per token, shortening windows where that helps, and the serialised
 * evidence (as the answer prompt shows it, counted with the configured tokenizer) never takes more
 * than {@code tokenBudget} tokens. {@code k} is then the least search depth; the number of items is
 * whatever fits.
 *
 * @param namespace the namespace to search; only this namespace is ever read
 * @param text the question, not blank, at most {@link Checks#MAX_QUESTION_CHARS} chars
 * @param k how many evidence items to return (at least 1); with a token budget, the least depth
 * @param askedAt the time basis for relative dates in the question; nullable (then "now")
 * @param tokenBudget the most tokens the serialised evidence may take, in
 *     [{@link #MIN_TOKEN_BUDGET}, {@link #MAX_TOKEN_BUDGET}], or {@link #NO_TOKEN_BUDGET}
 */
public record Question(String namespace, String text, int k, LocalDateTime askedAt, int tokenBudget) {

  /** The default evidence depth (the paper's effective k). */
  public static final int DEFAULT_K = 15;
  /** The {@code tokenBudget} of a question without a budget. */
  public static final int NO_TOKEN_BUDGET = 0;
  /**
   * The smallest token budget: the two block headings of the serialised evidence take about 12
   * tokens, so a smaller budget could not hold even one short item.
   */
  public static final int MIN_TOKEN_BUDGET = 32;
  /** The largest token budget (far above any model's context window). */
  public static final int MAX_TOKEN_BUDGET = 1_000_000;

  public Question {
    Checks.name(namespace, "namespace");
    Checks.question(text);
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
    checkTokenBudget(tokenBudget, "tokenBudget");
  }

  /**
   * Checks a token budget where it is configured (an adapter's builder, a property), so that a bad
   * value fails there with the name the user wrote rather than at the first question.
   *
   * @param budget in [{@link #MIN_TOKEN_BUDGET}, {@link #MAX_TOKEN_BUDGET}], or {@link #NO_TOKEN_BUDGET}
   * @param name what the message calls the value ("tokenBudget", "lychee.recall.token-budget")
   * @return {@code budget}
   * @throws IllegalArgumentException naming {@code name} and the range when {@code budget} is outside it
   */
  public static int checkTokenBudget(int budget, String name) {
    if (budget != NO_TOKEN_BUDGET && (budget < MIN_TOKEN_BUDGET || budget > MAX_TOKEN_BUDGET)) {
      throw new IllegalArgumentException(name + " must be between " + MIN_TOKEN_BUDGET + " and "
          + MAX_TOKEN_BUDGET + " tokens (or " + NO_TOKEN_BUDGET + " for none): " + budget);
    }
    return budget;
  }

  /** A question without a token budget. */
  public Question(String namespace, String text, int k, LocalDateTime askedAt) {
    this(namespace, text, k, askedAt, NO_TOKEN_BUDGET);
  }

  /** A question with the default depth, no time basis and no token budget. */
  public static Question of(String namespace, String text) {
    return new Question(namespace, text, DEFAULT_K, null);
  }

  /** This question with another depth (the budget, if any, is kept). */
  public Question withK(int newK) {
    return new Question(namespace, text, newK, askedAt, tokenBudget);
  }

  /**
   * This question with a token budget for its evidence.
   *
   * @throws IllegalArgumentException if {@code budget} is outside [{@link #MIN_TOKEN_BUDGET},
   *     {@link #MAX_TOKEN_BUDGET}]
   */
  public Question withTokenBudget(int budget) {
    if (budget == NO_TOKEN_BUDGET) {
      throw new IllegalArgumentException("tokenBudget must be between " + MIN_TOKEN_BUDGET + " and "
          + MAX_TOKEN_BUDGET + " tokens: 0 (use withoutTokenBudget() for none)");
    }
    return new Question(namespace, text, k, askedAt, budget);
  }

  /** This question without a token budget. */
  public Question withoutTokenBudget() {
    return new Question(namespace, text, k, askedAt, NO_TOKEN_BUDGET);
  }

  /** Whether the evidence must fit a token budget. */
  public boolean hasTokenBudget() {
    return tokenBudget != NO_TOKEN_BUDGET;
  }
}
