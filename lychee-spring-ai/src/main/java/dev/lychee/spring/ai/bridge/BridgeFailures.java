package dev.lychee.spring.ai.bridge;

import dev.lychee.api.ProviderException;
import java.lang.reflect.Method;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a failure of the application's Spring AI model into a {@link ProviderException} whose
 * status says whether Lychee may try again. Without it a revoked key or an unknown model name was
 * retried {@code maxAttempts} times per segment, each attempt billed. In the cause chain, in order:
 *
 * <ul>
 *   <li>Spring's {@code RestClientResponseException} or {@code WebClientResponseException} (the
 *       HTTP clients' own errors): their status;
 *   <li>Spring AI's {@code NonTransientAiException} / {@code TransientAiException}, which its
 *       response error handler raises with the message {@code "<status> - <body>"}: that status;
 *       else 400 for a non-transient one (refused as such) and -1 for a transient one.
 * </ul>
 *
 * Anything else is -1 (retried as transient). The types are matched by name, so that neither
 * {@code spring-web} nor {@code spring-ai-retry} has to be on the class path.
 */
final class BridgeFailures {
  private static final int MAX_DEPTH = 16;
  private static final String NON_TRANSIENT = "org.springframework.ai.retry.NonTransientAiException";
  private static final String TRANSIENT = "org.springframework.ai.retry.TransientAiException";
  private static final String REST_CLIENT = "org.springframework.web.client.RestClientResponseException";
  private static final String WEB_CLIENT = "org.springframework.web.reactive.function.client.WebClientResponseException";
  private static final Pattern STATUS_PREFIX = Pattern.compile("^([1-5][0-9]{2}) - ");

  private BridgeFailures() {}

  /**
   * @param endpoint the endpoint the exception names ({@code spring-ai:<model>})
   * @param what what failed, for the message ("the application's chat model")
   */
  static ProviderException of(String endpoint, String what, RuntimeException e) {
    return new ProviderException(endpoint, status(e), what + " failed: " + describe(e), e);
  }

  /** The HTTP status the failure stands for, or -1 when it is not known to be one. */
  static int status(Throwable e) {
    int depth = 0;
    for (Throwable c = e; c != null && depth < MAX_DEPTH; c = c.getCause(), depth++) {
      if (is(c, REST_CLIENT) || is(c, WEB_CLIENT)) {
        int s = httpStatus(c);
        if (s > 0) {
          return s;
        }
      }
    }
    depth = 0;
    for (Throwable c = e; c != null && depth < MAX_DEPTH; c = c.getCause(), depth++) {
      boolean refused = is(c, NON_TRANSIENT);
      if (refused || is(c, TRANSIENT)) {
        Matcher m = STATUS_PREFIX.matcher(c.getMessage() == null ? "" : c.getMessage());
        return m.find() ? Integer.parseInt(m.group(1)) : refused ? 400 : -1;
      }
    }
    return -1;
  }

  /** Whether {@code t}'s class is, or extends, the class named {@code name}. */
  private static boolean is(Throwable t, String name) {
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** {@code getStatusCode().value()} of a Spring HTTP client error, or -1 when it cannot be read. */
  private static int httpStatus(Throwable t) {
    try {
      Object code = t.getClass().getMethod("getStatusCode").invoke(t);
      // HttpStatusCode is an interface; its implementations need not be public classes
      Class<?> type = Class.forName("org.springframework.http.HttpStatusCode", false, t.getClass().getClassLoader());
      Method value = type.getMethod("value");
      return code == null ? -1 : (Integer) value.invoke(code);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return -1;
    }
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
