package dev.lychee.langchain4j.bridge;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.NonRetriableException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.lychee.api.ProviderException;

/**
 * Turns a failure of the application's langchain4j model into a {@link ProviderException} whose
 * status says whether Lychee may try again: the HTTP status of an {@link HttpException} in the
 * cause chain (langchain4j's clients keep it there under their typed exceptions), else the status
 * langchain4j's exception type stands for, else -1 (retried as transient). Without it a revoked key
 * or an unknown model name was retried {@code maxAttempts} times per segment, each attempt billed.
 */
final class BridgeFailures {
  /** Causes looked at, so that a cyclic chain cannot loop. */
  private static final int MAX_DEPTH = 16;

  private BridgeFailures() {}

  /**
   * @param endpoint the endpoint the exception names ({@code langchain4j:<model>})
   * @param what what failed, for the message ("the application's chat model")
   */
  static ProviderException of(String endpoint, String what, RuntimeException e) {
    return new ProviderException(endpoint, status(e), what + " failed: " + describe(e), e);
  }

  /** The HTTP status the failure stands for, or -1 when it is not known to be one. */
  static int status(Throwable e) {
    int depth = 0;
    for (Throwable c = e; c != null && depth < MAX_DEPTH; c = c.getCause(), depth++) {
      if (c instanceof HttpException h) {
        return h.statusCode();
      }
    }
    depth = 0;
    for (Throwable c = e; c != null && depth < MAX_DEPTH; c = c.getCause(), depth++) {
      int s = typeStatus(c);
      if (s != 0) {
        return s;
      }
    }
    return -1;
  }

  /** The status of one of langchain4j's typed exceptions (-1: none, but known), 0 for any other throwable. */
  private static int typeStatus(Throwable c) {
    if (c instanceof AuthenticationException) {
      return 401;
    }
    if (c instanceof ModelNotFoundException) {
      return 404;
    }
    if (c instanceof RateLimitException) {
      return 429;
    }
    if (c instanceof TimeoutException) {
      return 408;
    }
    if (c instanceof InternalServerException) {
      return 500;
    }
    if (c instanceof UnresolvedModelServerException) {
      return -1; // no HTTP answer at all (a host name that did not resolve): as a refused connection
    }
    if (c instanceof InvalidRequestException || c instanceof NonRetriableException) {
      return 400; // refused as such: another attempt would be refused the same way
    }
    return 0;
  }

  /** The failure's message, or its type (and its cause's) when it has none: never "null". */
  static String describe(Throwable e) {
    StringBuilder out = new StringBuilder();
    int depth = 0;
    for (Throwable c = e; c != null && depth < MAX_DEPTH; c = c.getCause(), depth++) {
      String m = c.getMessage();
      if (m != null && !m.isBlank()) {
        return out.append(m).toString();
      }
      out.append(c.getClass().getSimpleName()).append(c.getCause() == null ? "" : ": ");
    }
    return out.toString();
  }
}
