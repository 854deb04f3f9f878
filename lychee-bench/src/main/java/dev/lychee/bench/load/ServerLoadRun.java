package dev.lychee.bench.load;

import dev.lychee.api.Question;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.SpeedRun;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.core.Lychee;
import dev.lychee.server.LycheeServer;
import dev.lychee.server.ServerConfig;
import dev.lychee.server.auth.ApiKey;
import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.auth.NamespacePattern;
import dev.lychee.server.auth.Right;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lychee behind {@link LycheeServer} on loopback, with an API key, driven by 1..n concurrent
 * clients: single-turn ingest requests and recall requests over HTTP, and, in the same process on
 * the same memory, recall called directly with the same concurrency (what the HTTP layer costs).
 * The workload is stored before timing; untimed recalls warm the JIT first.
 */
public final class ServerLoadRun {
  static final String NAMESPACE = "load";
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
  private final Lychee memory;
  private final LoadWorkload workload;
  private final int requestsPerClient;
  private final int warmup;
  private final Progress progress;

  public ServerLoadRun(Lychee memory, LoadWorkload workload, int requestsPerClient, int warmup, Progress progress) {
    if (requestsPerClient < 1) {
      throw new IllegalArgumentException("requests per client must be >= 1: " + requestsPerClient);
    }
    this.memory = memory;
    this.workload = workload;
    this.requestsPerClient = requestsPerClient;
    this.warmup = warmup;
    this.progress = progress;
  }

  /** Runs every client count; rows in order: per count, http ingest, http recall, in-process recall. */
  public List<LoadRow> run(List<Integer> clientCounts) throws Exception {
    String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    ApiKey key = new ApiKey("load", ApiKeys.sha256(secret), List.of(new NamespacePattern(NAMESPACE)), Right.WRITE, null);
    ServerConfig config = ServerConfig.builder().port(0).keys(ApiKeys.of(List.of(key))).build();
    progress.start("store workload", workload.sessions().size());
    for (EvalSession s : workload.sessions()) {
      memory.append(NAMESPACE, s.id(), s.date(), s.turns());
      memory.flush(NAMESPACE, s.id());
      progress.step();
    }
    progress.done(memory.store().countTurns(NAMESPACE) + " turns stored");
    List<LoadRow> rows = new ArrayList<>();
    try (LycheeServer server = LycheeServer.start(config, memory)) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      String base = server.baseUrl() + "/v1/namespaces/" + NAMESPACE;
      for (int i = 0; i < warmup; i++) {
        memory.recall(Question.of(NAMESPACE, question(i)).withK(10));
        post(http, base + "/recall", secret, recallBody(i));
      }
      for (int clients : clientCounts) {
        progress.log("clients: " + clients);
        rows.add(measure("http ingest", clients, (c, i) -> post(http,
            base + "/sessions/load-c" + clients + "-t" + c + "/turns", secret,
            turnBody(c, i))));
        rows.add(measure("http recall", clients, (c, i) -> post(http, base + "/recall", secret, recallBody(c * requestsPerClient + i))));
        rows.add(measure("in-process recall", clients, (c, i) -> {
          memory.recall(Question.of(NAMESPACE, question(c * requestsPerClient + i)).withK(10));
          return true;
        }));
      }
    }
    return rows;
  }

  /** One timed request: {@code client} and request number in; true when it succeeded. */
  @FunctionalInterface
  interface Request {
    boolean send(int client, int i) throws Exception;
  }

  private LoadRow measure(String mode, int clients, Request request) throws Exception {
    progress.start(mode + " x" + clients, clients * requestsPerClient);
    double[] latencies = new double[clients * requestsPerClient];
    AtomicInteger failures = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Callable<Void>> tasks = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        tasks.add(() -> {
          for (int i = 0; i < requestsPerClient; i++) {
            long t0 = System.nanoTime();
            boolean ok = request.send(client, i);
            latencies[client * requestsPerClient + i] = (System.nanoTime() - t0) / 1e6;
            if (!ok) {
              failures.incrementAndGet();
            }
            progress.step();
          }
          return null;
        });
      }
      long start = System.nanoTime();
      for (Future<Void> f : pool.invokeAll(tasks)) {
        f.get();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      LoadRow row = new LoadRow(mode, clients, latencies.length, latencies.length / seconds,
          SpeedRun.percentile(latencies, 50), SpeedRun.percentile(latencies, 95), failures.get());
      progress.done(String.format(java.util.Locale.ROOT, "%.1f req/s", row.requestsPerS()));
      return row;
    } finally {
      pool.shutdown();
    }
  }

  private String question(int i) {
    return workload.questions().get(i % workload.questions().size());
  }

  private String recallBody(int i) throws Exception {
    return JSON.writeValueAsString(java.util.Map.of("question", question(i), "k", 10));
  }

  private static String turnBody(int client, int i) throws Exception {
    return JSON.writeValueAsString(java.util.Map.of("turns",
        List.of(java.util.Map.of("speaker", "Kai", "index", i, "text", LoadWorkload.turnText(client, i)))));
  }

  private static boolean post(HttpClient http, String url, String key, String body) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(120))
        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
    return r.statusCode() / 100 == 2;
  }
}
