package dev.lychee.provider.retry;

import dev.lychee.api.ProviderException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The retry loop every provider runs: an attempt that fails with a transient {@link HttpFailure}
 * is retried after a {@link Backoff} wait (the server's when it names one), at most
 * {@code maxRetries} times; the {@link RetryListener} hears of each retry first. Every other
 * failure ends the call at once. The caller always gets either the result or one
 * {@link ProviderException} naming the endpoint, the status and the number of attempts.
 *
 * <p>Thread-safe; it holds no per-call state.
 */
public final class RetryPolicy {
  private final int maxRetries;
  private final Backoff backoff;
  private final RetryListener listener;

  /**
   * @param maxRetries retries after the first attempt, {@code >= 0}
   * @param initialBackoff the first wait when the server names none; doubles per retry
   * @param maxBackoff the cap on any single wait
   */
  public RetryPolicy(int maxRetries, Duration initialBackoff, Duration maxBackoff, RetryListener listener) {
    this(maxRetries, new Backoff(initialBackoff, maxBackoff, Clock.systemUTC()), listener);
  }

  RetryPolicy(int maxRetries, Backoff backoff, RetryListener listener) {
    this.maxRetries = requireRetries(maxRetries);
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.listener = Objects.requireNonNull(listener, "retryListener");
  }

  /** Checks a retry count: {@code >= 0}. */
  public static int requireRetries(int maxRetries) {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0: " + maxRetries);
    }
    return maxRetries;
  }

  /**
   * Runs {@code attempt} until it returns, retrying transient HTTP failures.
   *
   * @param method the HTTP method, for messages
   * @param endpoint the URL called, without secrets, for messages
   * @throws ProviderException when the attempts are used up, on a non-transient status, when
   *     interrupted while waiting, or as thrown by {@code attempt}
   */
  public <T> T execute(String method, String endpoint, Supplier<T> attempt) {
    int allowed = maxRetries + 1;
    for (int n = 1; ; n++) {
      try {
        return attempt.get();
      } catch (HttpFailure f) {
        if (!f.isTransient() || n >= allowed) {
          throw new ProviderException(endpoint, f.status(), method + " " + endpoint + " failed with HTTP "
              + f.status() + " after " + (n == 1 ? "1 attempt" : n + " attempts") + ": " + f.getMessage(), f.getCause());
        }
        Duration wait = backoff.waitAfter(n, f.serverWait());
        listener.beforeRetry(n, f.status(), wait);
        if (!Backoff.sleep(wait)) {
          throw new ProviderException(endpoint, f.status(),
              "interrupted while waiting to retry " + method + " " + endpoint, f.getCause());
        }
      }
    }
  }
}
