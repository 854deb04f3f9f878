package dev.lychee.api;

/**
 * Generative LLM tokens consumed: input (prompt) and output (completion).
 *
 * @param inputTokens prompt tokens, {@code >= 0}
 * @param outputTokens completion tokens, {@code >= 0}
 */
public record TokenUsage(long inputTokens, long outputTokens) {

  /** No tokens: what every non-LLM component reports. */
  public static final TokenUsage ZERO = new TokenUsage(0, 0);

  public TokenUsage {
    if (inputTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException("token counts must be >= 0");
    }
  }

  public long total() {
    return inputTokens + outputTokens;
  }

  public TokenUsage plus(TokenUsage other) {
    return new TokenUsage(inputTokens + other.inputTokens, outputTokens + other.outputTokens);
  }
}
