package dev.lychee.server.boot;

import dev.lychee.core.Lychee;
import dev.lychee.server.LycheeServer;
import dev.lychee.server.ServerConfig;
import dev.lychee.server.auth.ApiKeyFile;
import dev.lychee.server.auth.ApiKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lychee serve}: runs the HTTP service (REST v1, mem0 routes, MCP at /mcp) until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run Lychee as an HTTP service: REST v1 (/openapi.json), mem0-compatible routes and MCP (streamable HTTP) at /mcp.",
        "",
        "API keys come from --keys FILE, LYCHEE_API_KEYS_FILE or LYCHEE_API_KEYS (JSON holding SHA-256 hashes of the keys). "
            + "Without keys the server is open to every local process and may only bind a loopback address.",
        "The chat model comes from LYCHEE_LLM (openai:<model> or ollama:<model>; unset: offline)."})
public final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--host", paramLabel = "ADDR", description = "Address to bind. Default: ${DEFAULT-VALUE}.")
  String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "N", description = "Port (0 picks a free one). Default: ${DEFAULT-VALUE}.")
  int port = ServerConfig.DEFAULT_PORT;

  @Option(names = "--db", paramLabel = "PATH", description = "SQLite file. Default: ~/.lychee/lychee.db.")
  Path db;

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

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    ServerConfig config;
    try {
      ApiKeys apiKeys = keys != null ? ApiKeyFile.read(keys) : ApiKeyFile.fromEnvironment(System.getenv());
      config = ServerConfig.builder().host(host).port(port).keys(apiKeys).maxBodyBytes(maxBody)
          .mcpNamespace(mcpNamespace).evalJson(evalJson).build();
    } catch (IllegalArgumentException e) {
      err.println("lychee serve: " + e.getMessage());
      return 2;
    }
    Lychee memory = new Backends(db != null ? db : Backends.defaultDb(), System.getenv()).open(line -> err.println("lychee: " + line));
    LycheeServer server;
    try {
      server = LycheeServer.start(config, memory);
    } catch (RuntimeException e) {
      memory.close();
      err.println("lychee serve: cannot start on " + host + ":" + port + ": " + rootMessage(e));
      return 1;
    }
    if (config.keys().isEmpty()) {
      err.println("lychee: NO API KEYS: every local process may read and write every namespace (allowed only on loopback)");
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

  static String rootMessage(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
