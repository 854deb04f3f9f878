package dev.lychee.core.fallback;

import java.time.Duration;
import java.util.Objects;

/**
 * What reads do when the LLM fails or is slow.
 *
 * @param deadline the longest one {@code recall} or {@code answer} call waits for LLM calls in all
 *     (planner and answerer together, retries included); default 60 s. A provider's own per-call
 *     timeout ({@code LYCHEE_LLM_TIMEOUT}) still applies inside it.
 * @param onLlmFailure fall back to the offline planner and answerer with one warning (default),
 *     or fail the call
 */
public record FallbackConfig(Duration deadline, LlmFailurePolicy onLlmFailure) {

  /** What a read does when an LLM call fails or passes the deadline. */
  public enum LlmFailurePolicy {
    /** Use the rule-based planner / extractive answerer instead, and log one warning line. */
    FALL_BACK,
    /** Throw {@link LlmUnavailableException}. */
    FAIL
  }

  public FallbackConfig {
    Objects.requireNonNull(deadline, "deadline");
    if (deadline.isZero() || deadline.isNegative()) {
      throw new IllegalArgumentException("deadline must be positive: " + deadline);
    }
    Objects.requireNonNull(onLlmFailure, "onLlmFailure");
  }

  /** 60 s, fall back. */
  public static FallbackConfig defaults() {
    return new FallbackConfig(Duration.ofSeconds(60), LlmFailurePolicy.FALL_BACK);
  }

  /** This configuration with another deadline. */
  public FallbackConfig withDeadline(Duration d) {
    return new FallbackConfig(d, onLlmFailure);
  }

  /** This configuration with another policy. */
  public FallbackConfig withPolicy(LlmFailurePolicy p) {
    return new FallbackConfig(deadline, p);
  }
}
