package dev.lychee.server.http;

import io.javalin.http.Context;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;

/** Times every request by method, route template (never the concrete path, so names stay bounded) and status. */
public final class HttpMetrics {
  private final PrometheusMeterRegistry registry;

  public HttpMetrics(PrometheusMeterRegistry registry) {
    this.registry = registry;
  }

  public void record(Context ctx, float millis) {
    String route;
    try {
      io.javalin.router.Endpoint e = ctx.endpoints().matchedHttpEndpoint();
      route = e == null ? "unmatched" : e.path;
    } catch (RuntimeException e) {
      route = "unmatched";
    }
    Timer.builder("lychee.http.requests")
        .description("HTTP requests served")
        .tag("method", ctx.method().name())
        .tag("route", route)
        .tag("status", Integer.toString(ctx.statusCode()))
        .publishPercentiles(0.5, 0.95)
        .register(registry)
        .record((long) (millis * 1_000_000L), TimeUnit.NANOSECONDS);
  }
}
