package dev.lychee.api;

/**
 * A model provider (chat or embedding endpoint) failed: the message names the endpoint, the HTTP
 * status where there is one, and what was tried.
 */
public class ProviderException extends LycheeException {
  private final String endpoint;
  private final int status;

  /**
   * @param endpoint the endpoint that failed (URL or host)
   * @param status the HTTP status, or -1 when the failure was not an HTTP response (timeout,
   *     connection refused, malformed body)
   */
  public ProviderException(String endpoint, int status, String message, Throwable cause) {
    super(message, cause);
    this.endpoint = endpoint;
    this.status = status;
  }

  public String endpoint() {
    return endpoint;
  }

  /** The HTTP status, or -1. */
  public int status() {
    return status;
  }
}
