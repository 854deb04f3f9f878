package dev.lychee.server.http;

import io.javalin.http.Context;
import java.time.Duration;

/**
 * The {@code timeout_ms} query parameter of {@code await-idle}: how long one request may hold a
 * server thread waiting for background encoding. Bounded, so that a client cannot park threads
 * for ever; a client that needs longer calls again.
 */
final class IdleWait {
  static final long DEFAULT_MS = 10_000;
  static final long MAX_MS = 60_000;

  private IdleWait() {}

  static Duration of(Context ctx) {
    String v = ctx.queryParam("timeout_ms");
    if (v == null || v.isEmpty()) {
      return Duration.ofMillis(DEFAULT_MS);
    }
    long ms;
    try {
      ms = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "timeout_ms must be an integer: '" + v + "'");
    }
    if (ms < 0 || ms > MAX_MS) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "timeout_ms must be between 0 and " + MAX_MS + ": " + ms);
    }
    return Duration.ofMillis(ms);
  }
}
