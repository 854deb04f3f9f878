package dev.lychee.core.conformance;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A real HTTP server on {@code 127.0.0.1} (ephemeral port) that answers with scripted responses and
 * records every request it receives. Provider tests use it to speak a provider's real wire
 * protocol without any network beyond the loopback interface.
 *
 * <p>Responses come first from the FIFO queue filled by {@link #enqueue}; when the queue is empty
 * the {@link #route router} (if any) answers, which lets end-to-end tests answer by inspecting the
 * request. A request nobody scripted (or that the router declines with {@code null}) gets HTTP 400,
 * which providers do not retry, so a test fails loudly instead of hanging or looping.
 */
public final class ScriptedHttpServer implements AutoCloseable {

  /**
   * One scripted answer.
   *
   * @param status the HTTP status
   * @param headers response headers (for example {@code Retry-After})
   * @param body the body, sent as UTF-8
   * @param delay how long to wait before answering (to provoke client timeouts)
   * @param stall how long to wait after the headers and the first half of the body before the
   *     rest (zero: none), as a server or proxy that stops in the middle of a response
   */
  public record Response(int status, Map<String, String> headers, String body, Duration delay, Duration stall) {
    public Response {
      headers = Map.copyOf(headers);
      Objects.requireNonNull(body, "body");
      delay = delay == null ? Duration.ZERO : delay;
      stall = stall == null ? Duration.ZERO : stall;
    }

    /** A response sent without a stall. */
    public Response(int status, Map<String, String> headers, String body, Duration delay) {
      this(status, headers, body, delay, Duration.ZERO);
    }

    /** A 200 response with a JSON body. */
    public static Response json(String body) {
      return new Response(200, Map.of("Content-Type", "application/json"), body, Duration.ZERO);
    }

    /** A response with the given status and JSON body. */
    public static Response json(int status, String body) {
      return new Response(status, Map.of("Content-Type", "application/json"), body, Duration.ZERO);
    }

    /** The same response with one more header. */
    public Response withHeader(String name, String value) {
      Map<String, String> h = new LinkedHashMap<>(headers);
      h.put(name, value);
      return new Response(status, h, body, delay, stall);
    }

    /** The same response, sent only after {@code wait}. */
    public Response delayedBy(Duration wait) {
      return new Response(status, headers, body, wait, stall);
    }

    /** The same response, whose headers and first half of the body come at once and the rest after {@code wait}. */
    public Response stallingAfterHeaders(Duration wait) {
      return new Response(status, headers, body, delay, wait);
    }
  }

  /**
   * A request as the server saw it.
   *
   * @param method the HTTP method
   * @param path the request path (without query)
   * @param headers request headers, names lower-cased
   * @param body the body as UTF-8 text
   */
  public record Request(String method, String path, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final ExecutorService executor;
  private final Deque<Response> queue = new ConcurrentLinkedDeque<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private volatile Function<Request, Response> router;

  private ScriptedHttpServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts a server on 127.0.0.1 with an ephemeral port. */
  public static ScriptedHttpServer start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      // several threads: a deliberately slow answer must not block the next request
      ExecutorService executor =
          Executors.newCachedThreadPool(
              r -> {
                Thread t = new Thread(r, "scripted-http");
                t.setDaemon(true);
                return t;
              });
      ScriptedHttpServer s = new ScriptedHttpServer(server, executor);
      server.createContext("/", s::handle);
      server.setExecutor(executor);
      server.start();
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>} (no trailing slash). */
  public URI baseUri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Queues one response; responses are served in the order they were queued. */
  public ScriptedHttpServer enqueue(Response response) {
    queue.addLast(Objects.requireNonNull(response));
    return this;
  }

  /** Answers requests that find the queue empty. */
  public ScriptedHttpServer route(Function<Request, Response> router) {
    this.router = router;
    return this;
  }

  /** Every request received so far, in arrival order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /** The last request received. */
  public Request lastRequest() {
    List<Request> all = requests();
    if (all.isEmpty()) {
      throw new AssertionError("the server received no request");
    }
    return all.get(all.size() - 1);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
      Request request =
          new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body);
      requests.add(request);
      Response response = queue.pollFirst();
      if (response == null) {
        Function<Request, Response> r = router;
        response = r == null ? null : r.apply(request);
      }
      if (response == null) {
        response = Response.json(400, "{\"error\":\"no scripted response for " + request.path() + "\"}");
      }
      if (!response.delay().isZero()) {
        try {
          Thread.sleep(response.delay().toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
      response.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          if (response.stall().isZero()) {
            out.write(bytes);
          } else {
            out.write(bytes, 0, bytes.length / 2);
            out.flush();
            try {
              Thread.sleep(response.stall().toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
            out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
          }
        }
      }
    } catch (IOException e) {
      // the client gave up (for example after its timeout): nothing left to answer
    }
  }

  /** Requests received with the given path. */
  public List<Request> requestsTo(String path) {
    List<Request> out = new ArrayList<>();
    for (Request r : requests) {
      if (r.path().equals(path)) {
        out.add(r);
      }
    }
    return out;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
