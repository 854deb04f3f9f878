package dev.lychee.provider.retry;

import java.time.Duration;

/**
 * Told about every retry before the model waits, for logging and metrics.
 *
 * <p>Called on the calling thread; must be quick and must not throw.
 */
@FunctionalInterface
public interface RetryListener {

  /** Does nothing. */
  RetryListener NONE = (attempt, status, wait) -> {};

  /**
   * @param attempt the attempt that just failed (1 = the first call)
   * @param status the HTTP status that made the call retryable (429 or 5xx)
   * @param wait how long the model now waits before the next attempt
   */
  void beforeRetry(int attempt, int status, Duration wait);
}
