package dev.lychee.provider.retry;

import java.time.Duration;
import java.util.Optional;

/**
 * What one attempt throws when the server answered with an error status, for {@link RetryPolicy}
 * to decide: retry (429 and 5xx, while attempts remain) or give up with a {@code ProviderException}
 * that counts the attempts.
 *
 * @param status the HTTP status
 * @param serverWait the wait the server asked for ({@code Retry-After} and the like), if any
 * @param detail the server's error text, already trimmed and free of secrets
 */
public final class HttpFailure extends RuntimeException {
  private final int status;
  private final transient Optional<Duration> serverWait;

  public HttpFailure(int status, Optional<Duration> serverWait, String detail, Throwable cause) {
    super(detail, cause);
    this.status = status;
    this.serverWait = serverWait == null ? Optional.empty() : serverWait;
  }

  public int status() {
    return status;
  }

  public Optional<Duration> serverWait() {
    return serverWait;
  }

  /** Whether a later attempt may succeed: rate limiting (429) and server errors (5xx). */
  public boolean isTransient() {
    return status == 429 || status >= 500;
  }
}
