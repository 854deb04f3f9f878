package dev.lychee.core.fallback;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What reads do when the LLM fails or is slow.
 *
 * @param deadline the longest one {@code recall} or {@code answer} call waits for LLM calls in all
 *     (planner and answerer together, retries included); default 60 s ({@code LYCHEE_DEADLINE} for
 *     the CLI and the server). A provider's own per-call timeout ({@code LYCHEE_LLM_TIMEOUT}) still
 *     applies inside it.
 * @param onLlmFailure fall back to the offline planner and answerer with one warning (default),
 *     or fail the call
 */
public record FallbackConfig(Duration deadline, LlmFailurePolicy onLlmFailure) {
  /**
   * The environment variable the command line and the server ({@code serve}, {@code mcp}) read
   * for {@link #deadline()}: seconds, decimals allowed.
   */
  public static final String DEADLINE_VARIABLE = "LYCHEE_DEADLINE";

  /** The longest deadline {@link #deadlineFromEnvironment} accepts, in seconds: a day. */
  static final double MAX_DEADLINE_SECONDS = 86_400;

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

  /**
   * The read deadline {@value #DEADLINE_VARIABLE} sets, in seconds ({@code 90}, {@code 2.5}),
   * for the entry points that read their settings from the environment (the CLI, {@code serve},
   * {@code mcp}); empty when it is unset or blank.
   *
   * @throws IllegalArgumentException naming the variable and the accepted range when the value is
   *     not a number of seconds in (0, 86400]
   */
  public static Optional<Duration> deadlineFromEnvironment(Map<String, String> env) {
    String raw = env.get(DEADLINE_VARIABLE);
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    double seconds;
    try {
      seconds = Double.parseDouble(raw.trim());
    } catch (NumberFormatException e) {
      seconds = Double.NaN;
    }
    // NaN and infinities fail this test too
    if (!(seconds > 0 && seconds <= MAX_DEADLINE_SECONDS)) {
      throw new IllegalArgumentException(DEADLINE_VARIABLE + "='" + raw.trim()
          + "': expected the read deadline as a number of seconds in (0, 86400], e.g. 60");
    }
    return Optional.of(Duration.ofMillis(Math.max(1, Math.round(seconds * 1000))));
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
