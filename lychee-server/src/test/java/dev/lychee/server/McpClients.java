package dev.lychee.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import dev.lychee.server.mcp.McpServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** The official SDK's client over both transports, for tests. */
final class McpClients {
  private McpClients() {}

  static McpSyncClient http(String baseUrl, String key) {
    HttpClientStreamableHttpTransport t = HttpClientStreamableHttpTransport.builder(baseUrl)
        .endpoint("/mcp")
        .jsonMapper(McpServers.jsonMapper())
        .httpRequestCustomizer((req, method, uri, body, ctx) -> {
          if (key != null) {
            req.header("Authorization", "Bearer " + key);
          }
        })
        .build();
    return McpClient.sync(t).requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(30)).build();
  }

  /** Starts {@code ServerMain mcp} in a child JVM on the test class path. */
  static McpSyncClient stdio(Path db, String namespace) {
    java.util.List<String> command = stdioCommand(db, namespace);
    ServerParameters p = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
    return McpClient.sync(new StdioClientTransport(p, McpServers.jsonMapper()))
        .requestTimeout(Duration.ofSeconds(120)).initializationTimeout(Duration.ofSeconds(120)).build();
  }

  /** The command line of a child {@code ServerMain mcp} on the test class path. */
  static java.util.List<String> stdioCommand(Path db, String namespace) {
    return java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
        "-cp", System.getProperty("java.class.path"), "dev.lychee.server.boot.ServerMain", "mcp",
        "--db", db.toString(), "--namespace", namespace);
  }

  static CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
    return c.callTool(new McpSchema.CallToolRequest(tool, args));
  }

  /** The tool result's text content as JSON (tools answer JSON text beside structured content). */
  static JsonNode json(CallToolResult r) throws Exception {
    return Http.JSON.readTree(text(r));
  }

  static String text(CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }
}
