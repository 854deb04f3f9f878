package dev.lychee.server.boot;

import dev.lychee.api.Checks;
import dev.lychee.core.Lychee;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.server.auth.Caller;
import dev.lychee.server.http.JsonBodies;
import dev.lychee.server.mcp.McpServers;
import dev.lychee.server.mcp.MemoryTools;
import dev.lychee.server.memory.MemoryService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lychee mcp}: an MCP server on stdin/stdout for desktop and coding agents. Every tool acts
 * on one namespace ({@code --namespace}); stdout carries only JSON-RPC, everything else goes to
 * stderr. When the client closes stdin the command closes the memory and exits with 0, as the MCP
 * stdio transport asks; a signal does the same through the shutdown hook.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
    description = {"Run an MCP server over stdio (tools: remember, recall, ask, forget, list_sessions, status).",
        "Every tool acts on the namespace given by --namespace. Start it from an MCP client's configuration."})
public final class McpCommand implements Callable<Integer> {
  @Option(names = "--namespace", paramLabel = "NS", description = "The namespace the tools act on. Default: ${DEFAULT-VALUE}.")
  String namespace = "default";

  @Option(names = "--db", paramLabel = "PATH",
      description = "SQLite file. Default: $LYCHEE_DB, else lychee.db in $LYCHEE_HOME (default ~/.lychee).")
  Path db;

  @Mixin StoreOptions storeOptions = new StoreOptions();

  @Override
  public Integer call() throws Exception {
    try {
      // the library's name rule: the tools may act on any namespace the library, the CLI or an adapter stored
      Checks.name(namespace, "--namespace");
    } catch (IllegalArgumentException e) {
      System.err.println("lychee mcp: " + e.getMessage());
      return 2;
    }
    PrintStream rpc = System.out;
    System.setOut(System.err); // nothing but JSON-RPC may reach the client's pipe
    Backends backends = Backends.of(db, storeOptions.over(System.getenv()));
    Lychee memory;
    try {
      memory = backends.open(line -> System.err.println("lychee mcp: " + line));
    } catch (IllegalArgumentException e) {
      System.err.println("lychee mcp: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      System.err.println("lychee mcp: cannot open the memory at " + backends.location() + ": " + ServeCommand.rootMessage(e));
      return 1;
    }
    McpJsonMapper mapper = McpServers.jsonMapper();
    MemoryTools tools = new MemoryTools(new MemoryService(memory, new O200kTokenCounter()), mapper,
        new JsonBodies().writer(), namespace, Caller.OPEN);
    // the client ends the session by closing our stdin (or by a signal): either way we close once and exit
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicBoolean clientGone = new AtomicBoolean();
    McpSyncServer server = McpServers.overStdio(mapper, tools, new EndAwareInput(System.in, () -> {
      clientGone.set(true);
      stopped.countDown();
    }), rpc);
    System.err.println("lychee mcp: serving namespace '" + namespace + "' on stdio");
    AtomicBoolean closed = new AtomicBoolean();
    Runnable close = () -> {
      if (closed.compareAndSet(false, true)) {
        try {
          server.closeGracefully();
        } finally {
          memory.close();
        }
      }
    };
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      close.run();
      stopped.countDown();
    }, "lychee-mcp-shutdown"));
    stopped.await();
    close.run();
    if (clientGone.get()) {
      System.err.println("lychee mcp: the client closed stdin; stopped");
    }
    return 0;
  }
}
