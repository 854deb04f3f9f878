package dev.lychee.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.server.http.OriginPolicy;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Builds Lychee's MCP server on the official SDK, over stdio or streamable HTTP. */
public final class McpServers {
  public static final String NAME = "lychee";
  public static final String VERSION = "0.1.0-SNAPSHOT";
  static final String INSTRUCTIONS = "Long-term memory. Use remember to store conversation turns or notes, "
      + "recall for evidence with provenance, ask for an answer, and forget to delete a session.";

  private McpServers() {}

  /** A JSON mapper for the SDK. */
  public static McpJsonMapper jsonMapper() {
    return new JacksonMcpJsonMapper(new ObjectMapper());
  }

  /**
   * The streamable HTTP transport at {@code endpoint}; each request's caller is read by {@code
   * callerOf}. {@code origins} is also the SDK's own header validator: {@link McpAuthFilter} refuses
   * foreign headers first, with a problem document, and this second check keeps the transport safe
   * should it ever be mounted without the filter.
   */
  public static HttpServletStreamableServerTransportProvider httpTransport(McpJsonMapper mapper, String endpoint,
      Function<jakarta.servlet.http.HttpServletRequest, Object> callerOf, int maxRequestBytes, OriginPolicy origins) {
    return HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(mapper)
        .mcpEndpoint(endpoint)
        .maxRequestSize(maxRequestBytes)
        .httpHeaderValidator(headers -> {
          Optional<String> refusal = origins.refusal(first(headers.getHeader("Host")), first(headers.getHeader("Origin")));
          if (refusal.isPresent()) {
            throw new ServerTransportSecurityException(403, refusal.get());
          }
        })
        .contextExtractor(req -> {
          Object caller = callerOf.apply(req);
          Map<String, Object> ctx = new HashMap<>();
          if (caller != null) {
            ctx.put(MemoryTools.CALLER, caller);
          }
          return McpTransportContext.create(ctx);
        })
        .build();
  }

  private static String first(List<String> values) {
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** The MCP server on the HTTP transport. */
  public static McpSyncServer overHttp(HttpServletStreamableServerTransportProvider transport, McpJsonMapper mapper, MemoryTools tools) {
    return McpServer.sync(transport)
        .serverInfo(NAME, VERSION)
        .instructions(INSTRUCTIONS)
        .jsonMapper(mapper)
        .validateToolInputs(true)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(tools.specifications())
        .build();
  }

  /** The MCP server on stdio: JSON-RPC on {@code in}/{@code out}, nothing else may write to {@code out}. */
  public static McpSyncServer overStdio(McpJsonMapper mapper, MemoryTools tools, InputStream in, OutputStream out) {
    return McpServer.sync(new StdioServerTransportProvider(mapper, in, out))
        .serverInfo(NAME, VERSION)
        .instructions(INSTRUCTIONS)
        .jsonMapper(mapper)
        .validateToolInputs(true)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(tools.specifications())
        .build();
  }
}
