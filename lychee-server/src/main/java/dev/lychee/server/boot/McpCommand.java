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
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lychee mcp}: an MCP server on stdin/stdout for desktop and coding agents. Every tool acts
 * on one namespace ({@code --namespace}); stdout carries only JSON-RPC, everything else goes to
 * stderr.
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
    McpSyncServer server = McpServers.overStdio(mapper, tools, System.in, rpc);
    System.err.println("lychee mcp: serving namespace '" + namespace + "' on stdio");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.closeGracefully();
      memory.close();
      stopped.countDown();
    }, "lychee-mcp-shutdown"));
    stopped.await();
    return 0;
  }
}
