package dev.lychee.server;

import dev.lychee.core.Lychee;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.server.auth.Caller;
import dev.lychee.server.http.Access;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.Guard;
import dev.lychee.server.http.HttpMetrics;
import dev.lychee.server.http.JsonBodies;
import dev.lychee.server.http.JsonRoute;
import dev.lychee.server.http.OpsRoutes;
import dev.lychee.server.http.OriginPolicy;
import dev.lychee.server.inspect.InspectorRoutes;
import dev.lychee.server.http.ProblemCode;
import dev.lychee.server.http.ProblemErrorHandler;
import dev.lychee.server.http.Responder;
import dev.lychee.server.http.RouteSpec;
import dev.lychee.server.http.Routes;
import dev.lychee.server.http.V1Routes;
import dev.lychee.server.mcp.McpAuthFilter;
import dev.lychee.server.mcp.McpServers;
import dev.lychee.server.mcp.MemoryTools;
import dev.lychee.server.mem0.Mem0Routes;
import dev.lychee.server.memory.MemoryService;
import io.javalin.Javalin;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lychee as an HTTP service on Jetty 12 (through Javalin 7): REST v1, mem0-compatible routes,
 * operations routes, and MCP over streamable HTTP at {@code /mcp}, all behind the same API keys.
 *
 * <pre>{@code
 * try (LycheeServer server = LycheeServer.start(ServerConfig.builder().port(0).build(), memory)) {
 *   System.out.println(server.baseUrl());
 * }
 * }</pre>
 *
 * <p>The server does not own {@code memory}: closing the server leaves it open.
 */
public final class LycheeServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LycheeServer.class);
  /** The MCP endpoint path. */
  public static final String MCP_PATH = "/mcp";

  private final Javalin app;
  private final ServerConfig config;
  private final McpSyncServer mcp;
  private final List<RouteSpec> routes;

  private LycheeServer(Javalin app, ServerConfig config, McpSyncServer mcp, List<RouteSpec> routes) {
    this.app = app;
    this.config = config;
    this.mcp = mcp;
    this.routes = routes;
  }

  /** Starts the server with a registry of its own (HTTP and JVM meters); returns once it listens. */
  public static LycheeServer start(ServerConfig config, Lychee memory) {
    return start(config, memory, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  /**
   * Starts the server; {@code /metrics} serves {@code registry}, to which the server adds its HTTP
   * and JVM meters. Pass the registry {@code memory} was created with (through {@code
   * dev.lychee.core.metrics.MicrometerModule}) to publish the memory's meters too.
   */
  public static LycheeServer start(ServerConfig config, Lychee memory, PrometheusMeterRegistry registry) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(registry, "registry");
    // ServerConfig checks this when it is built; checked again here because an open server on a
    // reachable address would serve every namespace to the network
    if (config.keys().isEmpty() && !config.loopback()) {
      throw new IllegalArgumentException("refusing to start without API keys on " + config.host()
          + ", which is not a loopback address; configure keys");
    }
    JsonBodies json = new JsonBodies();
    Responder out = new Responder(json);
    MemoryService service = new MemoryService(memory, new O200kTokenCounter());
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    HttpMetrics metrics = new HttpMetrics(registry);
    OriginPolicy origins = new OriginPolicy(config.keys().isEmpty(), config.host(), config.allowedOrigins());
    Guard guard = new Guard(config.keys(), origins);

    List<Routes> groups = new ArrayList<>();
    groups.add(new V1Routes(service, json, out));
    groups.add(new Mem0Routes(service, json, out));
    groups.add(new OpsRoutes(registry, () -> ready(memory), out));
    groups.add(new InspectorRoutes(service, json, out, config.evalJson()));
    groups.addAll(config.extraRoutes());
    List<RouteSpec> routes = groups.stream().flatMap(g -> g.routes().stream()).toList();

    McpJsonMapper mapper = McpServers.jsonMapper();
    HttpServletStreamableServerTransportProvider transport = McpServers.httpTransport(mapper, MCP_PATH,
        req -> req.getAttribute(Guard.CALLER), (int) config.maxBodyBytes(), origins);
    McpSyncServer mcp = McpServers.overHttp(transport, mapper,
        new MemoryTools(service, mapper, json.writer(), config.mcpNamespace(), null));

    Javalin app = Javalin.create(cfg -> {
      cfg.jetty.host = config.host();
      cfg.jetty.port = config.port();
      cfg.http.maxRequestSize = config.maxBodyBytes();
      cfg.startup.showJavalinBanner = false;
      cfg.startup.showOldJavalinVersionWarning = false;
      cfg.router.ignoreTrailingSlashes = true;
      cfg.routes.beforeMatched(guard::check);
      cfg.routes.exception(ApiException.class, (e, ctx) -> {
        e.headers().forEach(ctx::header);
        out.problem(ctx, e.code(), e.getMessage());
      });
      cfg.routes.exception(HttpResponseException.class, (e, ctx) -> out.problem(ctx, ProblemCode.forStatus(e.getStatus()),
          detailFor(e.getStatus(), ctx.method().name(), ctx.path())));
      cfg.routes.exception(IllegalArgumentException.class, (e, ctx) -> out.problem(ctx, ProblemCode.INVALID_REQUEST, e.getMessage()));
      cfg.routes.exception(Exception.class, (e, ctx) -> {
        LOG.error("request {} {} failed: {}", ctx.method(), ctx.endpoint() == null ? "?" : ctx.endpoint().path, e.toString());
        out.problem(ctx, ProblemCode.INTERNAL, "the server failed while handling the request; it may be retried");
      });
      for (RouteSpec r : routes) {
        Endpoint.Companion.EndpointBuilder b = Endpoint.create(r.method(), r.path()).addMetadata(r.access());
        if (r.jsonBody()) {
          b.addMetadata(JsonRoute.INSTANCE);
        }
        cfg.routes.addEndpoint(b.handler(r.handler()));
      }
      cfg.requestLogger.http((ctx, ms) -> {
        metrics.record(ctx, ms);
        if (LOG.isDebugEnabled()) {
          Caller c = ctx.attribute(Guard.CALLER);
          LOG.debug("{} {} {} {} ms key={}", ctx.method(), ctx.path(), ctx.statusCode(), ms, c == null ? "-" : c.name());
        }
      });
      // Names are the library's (memory.Names): a namespace such as ADK's "<app>/<user>" reaches a route as
      // "app%2Fuser", and "." or ".." as "%2E", "%2E%2E". Jetty's URI compliance must let such paths through
      // (LEGACY, as Javalin sets it, stated here so that no default change can make a stored namespace
      // unreachable), and the servlet layer must not refuse them either (Servlet 6 calls them ambiguous).
      // Routing matches the raw path, segment by segment, and Javalin decodes each path parameter once.
      cfg.jetty.modifyHttpConfiguration(http -> http.setUriCompliance(UriCompliance.LEGACY));
      // what Jetty refuses before any route (a control character in a path) is a problem document too
      cfg.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler(json)));
      cfg.jetty.modifyServletContextHandler(h -> {
        h.getServletHandler().setDecodeAmbiguousURIs(true);
        h.addFilter(new FilterHolder(new McpAuthFilter(guard, json)), MCP_PATH, EnumSet.of(DispatcherType.REQUEST));
        h.addServlet(new ServletHolder(transport), MCP_PATH);
      });
    });
    app.start();
    if (config.keys().isEmpty()) {
      LOG.warn("NO API KEYS configured: every local process may read and write every namespace (allowed on loopback only;"
          + " requests with a foreign Host or Origin, such as other sites' web pages, are refused)");
    }
    LOG.info("lychee server listening on {}", "http://" + config.host() + ":" + app.port());
    return new LycheeServer(app, config, mcp, routes);
  }

  private static boolean ready(Lychee memory) {
    try {
      memory.store().countTurns("lychee-readiness-probe");
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String detailFor(int status, String method, String path) {
    return switch (status) {
      case 404 -> "no route " + method + " " + path + " (see /openapi.json)";
      case 405 -> "the route " + path + " does not take " + method;
      case 413 -> "the body is larger than the server accepts";
      default -> "the request was rejected (" + status + ")";
    };
  }

  /** The port the server listens on. */
  public int port() {
    return app.port();
  }

  /** {@code http://host:port}. */
  public String baseUrl() {
    String h = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    return "http://" + h + ":" + port();
  }

  public ServerConfig config() {
    return config;
  }

  /** Every REST route the server mounted (MCP at {@link #MCP_PATH} aside). */
  public List<RouteSpec> routes() {
    return routes;
  }

  /** Stops the server. The memory stays open. */
  @Override
  public void close() {
    try {
      mcp.closeGracefully();
    } catch (RuntimeException e) {
      LOG.debug("MCP close: {}", e.toString());
    }
    app.stop();
  }

  /** Whether the access rule of a route needs a key at all. */
  static boolean isPublic(Access a) {
    return a.scope() == Access.Scope.PUBLIC;
  }
}
