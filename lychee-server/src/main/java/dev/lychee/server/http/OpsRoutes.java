package dev.lychee.server.http;

import static io.javalin.http.HandlerType.GET;

import dev.lychee.server.auth.Right;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Operations: {@code /healthz} (the process answers), {@code /readyz} (the memory is open and its
 * store answers), {@code /metrics} (Prometheus text, admin keys only) and {@code /openapi.json}.
 */
public final class OpsRoutes implements Routes {
  /** Classpath location of the OpenAPI document kept in the repository. */
  public static final String OPENAPI_RESOURCE = "/dev/lychee/server/openapi.json";

  private final PrometheusMeterRegistry metrics;
  private final BooleanSupplier ready;
  private final Responder out;
  private final byte[] openapi;

  public OpsRoutes(PrometheusMeterRegistry metrics, BooleanSupplier ready, Responder out) {
    this.metrics = metrics;
    this.ready = ready;
    this.out = out;
    this.openapi = loadOpenApi();
  }

  @Override
  public List<RouteSpec> routes() {
    return List.of(
        new RouteSpec(GET, "/healthz", Access.open(), false, ctx -> out.json(ctx, 200, Map.of("status", "ok"))),
        new RouteSpec(GET, "/readyz", Access.open(), false, ctx -> {
          if (ready.getAsBoolean()) {
            out.json(ctx, 200, Map.of("status", "ready"));
          } else {
            out.problem(ctx, ProblemCode.UNAVAILABLE, "the memory store does not answer");
          }
        }),
        new RouteSpec(GET, "/metrics", Access.any(Right.ADMIN), false,
            ctx -> ctx.status(200).contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape())),
        new RouteSpec(GET, "/openapi.json", Access.open(), false,
            ctx -> ctx.status(200).contentType("application/json").result(openapi)));
  }

  /** The OpenAPI document's bytes. */
  public static byte[] loadOpenApi() {
    try (InputStream in = OpsRoutes.class.getResourceAsStream(OPENAPI_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the OpenAPI document " + OPENAPI_RESOURCE + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
