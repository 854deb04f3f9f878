package dev.lychee.server.boot;

import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.server.LycheeServer;
import dev.lychee.server.ServerConfig;
import dev.lychee.server.auth.ApiKeyFile;
import dev.lychee.server.auth.ApiKeys;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.time.Duration;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lychee serve}: runs the HTTP service (REST v1, mem0 routes, MCP at /mcp) until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run Lychee as an HTTP service: REST v1 (/openapi.json), mem0-compatible routes and MCP (streamable HTTP) at /mcp.",
        "",
        "API keys come from --keys FILE, LYCHEE_API_KEYS_FILE or LYCHEE_API_KEYS (JSON holding SHA-256 hashes of the keys). "
            + "Without keys the server is open to every local process and may only bind a loopback address.",
        "The chat model comes from LYCHEE_LLM (openai:<model> or ollama:<model>; unset: offline), the read deadline "
            + "from LYCHEE_DEADLINE (seconds; default 60).",
        "Namespaces and sessions may have any name the library accepts; in a path, percent-encode it (/ as %%2F)."})
public final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--host", paramLabel = "ADDR", description = "Address to bind. Default: ${DEFAULT-VALUE}.")
  String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "N", description = "Port (0 picks a free one). Default: ${DEFAULT-VALUE}.")
  int port = ServerConfig.DEFAULT_PORT;

  @Option(names = "--db", paramLabel = "PATH",
      description = "SQLite file. Default: $LYCHEE_DB, else lychee.db in $LYCHEE_HOME (default ~/.lychee).")
  Path db;

  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Option(names = "--keys", paramLabel = "FILE", description = "API key file (JSON with SHA-256 hashes, see README).")
  Path keys;

  @Option(names = "--max-body", paramLabel = "BYTES", description = "Largest request body. Default: ${DEFAULT-VALUE}.")
  long maxBody = ServerConfig.DEFAULT_MAX_BODY;

  @Option(names = "--mcp-namespace", paramLabel = "NS",
      description = "Namespace MCP tools use when a key names none. Default: ${DEFAULT-VALUE}.")
  String mcpNamespace = "default";

  @Option(names = "--eval-json", paramLabel = "FILE",
      description = "An `eval locomo --json` result that the web inspector charts (recall against tokens).")
  java.nio.file.Path evalJson;

  @Option(names = "--allowed-origin", paramLabel = "ORIGIN",
      description = {"A web origin (https://host[:port]) whose pages may call a server with keys, besides the server's own "
          + "and loopback pages: for a reverse proxy that rewrites Host. Repeatable; needs keys. Default: none."})
  java.util.List<String> allowedOrigins = new java.util.ArrayList<>();

  @Option(names = "--queue-capacity", paramLabel = "N",
      description = "Segments the background encoder may hold before writes are held or refused. Default: ${DEFAULT-VALUE}.")
  int queueCapacity = 1_000;

  @Option(names = "--queue-wait", paramLabel = "SECONDS",
      description = {"How long a write waits for room in a full encoding queue before it is refused with 429 "
          + "and Retry-After (0 refuses at once; at most 300). Default: ${DEFAULT-VALUE}."})
  int queueWait = 2;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    ServerConfig config;
    LycheeConfig memoryConfig;
    try {
      memoryConfig = memoryConfig();
      ApiKeys apiKeys = keys != null ? ApiKeyFile.read(keys) : ApiKeyFile.fromEnvironment(System.getenv());
      ServerConfig.Builder b = ServerConfig.builder().host(host).port(port).keys(apiKeys).maxBodyBytes(maxBody)
          .mcpNamespace(mcpNamespace).evalJson(evalJson);
      allowedOrigins.forEach(b::allowedOrigin);
      config = b.build();
    } catch (IllegalArgumentException e) {
      err.println("lychee serve: " + e.getMessage());
      return 2;
    }
    Backends backends = Backends.of(db, storeOptions.over(System.getenv()));
    // one registry for the memory's meters and the server's: /metrics shows both
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Lychee memory;
    try {
      memory = backends.open(line -> err.println("lychee: " + line), metrics, memoryConfig);
    } catch (IllegalArgumentException e) {
      err.println("lychee serve: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      err.println("lychee serve: cannot open the memory at " + backends.location() + ": " + rootMessage(e));
      return 1;
    }
    LycheeServer server;
    try {
      server = LycheeServer.start(config, memory, metrics);
    } catch (RuntimeException e) {
      memory.close();
      err.println("lychee serve: cannot listen on " + host + ":" + port + ": " + rootMessage(e)
          + (causedBy(e, java.net.BindException.class) ? " (another process may hold the port; choose one with --port)" : ""));
      return 1;
    }
    if (config.keys().isEmpty()) {
      err.println("lychee: NO API KEYS: every local process may read and write every namespace (allowed only on loopback;"
          + " web pages of other sites, with a foreign Host or Origin, are refused)");
    } else {
      err.println("lychee: " + config.keys().keys().size() + " API key(s): " + config.keys().keys().stream().map(k -> k.id()).toList());
    }
    err.println("lychee: listening on " + server.baseUrl() + " (inspector /, REST /v1, OpenAPI /openapi.json, MCP "
        + LycheeServer.MCP_PATH + ")");
    err.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      memory.close();
      stopped.countDown();
    }, "lychee-shutdown"));
    stopped.await();
    return 0;
  }

  /** The memory's configuration: a server holds a write briefly when the queue is full, then answers 429. */
  LycheeConfig memoryConfig() {
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("--queue-capacity must be at least 1: " + queueCapacity);
    }
    if (queueWait < 0 || queueWait > 300) {
      throw new IllegalArgumentException("--queue-wait must be between 0 and 300 seconds: " + queueWait);
    }
    IngestConfig ingest = IngestConfig.builder().queueCapacity(queueCapacity)
        .whenFull(queueWait == 0 ? IngestConfig.FullQueuePolicy.REJECT : IngestConfig.FullQueuePolicy.WAIT)
        .fullQueueWait(Duration.ofSeconds(queueWait)).build();
    return LycheeConfig.builder().ingest(ingest).build();
  }

  static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
    for (; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  static String rootMessage(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
