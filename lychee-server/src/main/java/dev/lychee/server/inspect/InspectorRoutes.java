package dev.lychee.server.inspect;

import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import dev.lychee.api.RecallTrace;
import dev.lychee.server.api.QueryRequest;
import dev.lychee.server.api.RecallView;
import dev.lychee.server.auth.Right;
import dev.lychee.server.http.Access;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.JsonBodies;
import dev.lychee.server.http.ProblemCode;
import dev.lychee.server.http.Responder;
import dev.lychee.server.http.RouteSpec;
import dev.lychee.server.http.Routes;
import dev.lychee.server.memory.MemoryService;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The web inspector: its page and assets at {@code /} (public: they hold no data; every datum the
 * page shows comes from the REST API under the caller's key), the traced recall it runs, and the
 * evaluation result it charts.
 *
 * <p>The assets are read from the jar once. They are sent with a content security policy that
 * allows only this origin, so a stored turn that looks like markup can neither run a script nor
 * load anything from elsewhere (the page also never inserts data as HTML).
 */
public final class InspectorRoutes implements Routes {
  static final String ASSETS = "/dev/lychee/server/inspector/";
  private static final Map<String, String> TYPES = Map.of(
      "index.html", "text/html; charset=utf-8", "app.js", "text/javascript; charset=utf-8",
      "app.css", "text/css; charset=utf-8");
  private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  private final MemoryService memory;
  private final JsonBodies json;
  private final Responder out;
  private final Path evalJson;
  private final Map<String, byte[]> assets;

  /**
   * @param evalJson an {@code eval locomo} result file to chart; null for none
   */
  public InspectorRoutes(MemoryService memory, JsonBodies json, Responder out, Path evalJson) {
    this.memory = memory;
    this.json = json;
    this.out = out;
    this.evalJson = evalJson;
    this.assets = Map.of("index.html", load("index.html"), "app.js", load("app.js"), "app.css", load("app.css"));
  }

  @Override
  public List<RouteSpec> routes() {
    return List.of(
        new RouteSpec(GET, "/", Access.open(), false, ctx -> asset(ctx, "index.html")),
        new RouteSpec(GET, "/inspector/{asset}", Access.open(), false, ctx -> asset(ctx, ctx.pathParam("asset"))),
        new RouteSpec(POST, "/v1/namespaces/{ns}/recall/trace", Access.path(Right.READ), true, ctx -> {
          String ns = ctx.pathParam("ns");
          QueryRequest q = json.read(ctx, QueryRequest.class);
          RecallTrace trace = new RecallTrace();
          RecallView recall = memory.recall(ns, q, trace);
          out.json(ctx, 200, TraceView.of(recall, trace));
        }),
        new RouteSpec(GET, "/v1/inspector/eval", Access.any(Right.READ), false, this::evaluation));
  }

  private void asset(Context ctx, String name) {
    byte[] body = assets.get(name);
    if (body == null) {
      throw new ApiException(ProblemCode.ASSET_NOT_FOUND, "no inspector asset '" + name + "'");
    }
    ctx.header("Content-Security-Policy", CSP);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cache-Control", "no-cache");
    ctx.status(200).contentType(TYPES.get(name)).result(body);
  }

  private void evaluation(Context ctx) {
    if (evalJson == null) {
      throw new ApiException(ProblemCode.NO_EVALUATION, "the server was started without --eval-json");
    }
    try {
      ctx.status(200).contentType("application/json").result(Files.readAllBytes(evalJson));
    } catch (IOException e) {
      throw new ApiException(ProblemCode.NO_EVALUATION, "the evaluation file given to the server cannot be read");
    }
  }

  private static byte[] load(String name) {
    try (InputStream in = InspectorRoutes.class.getResourceAsStream(ASSETS + name)) {
      if (in == null) {
        throw new IllegalStateException("the inspector asset " + ASSETS + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
