package dev.lychee.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.server.api.QueryRequest;
import dev.lychee.server.api.TurnInput;
import dev.lychee.server.api.TurnsRequest;
import dev.lychee.server.auth.Caller;
import dev.lychee.server.auth.Right;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.Guard;
import dev.lychee.server.http.ProblemCode;
import dev.lychee.server.memory.MemoryService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP tools: remember, recall, ask, forget, list_sessions and status. None takes a namespace:
 * it comes from the caller's key (its default namespace, or its single exact namespace) or from
 * the server's configuration, and the key's scope is checked on every call, so an MCP client can
 * never reach another namespace.
 */
public final class MemoryTools {
  /** Transport-context key under which HTTP requests carry their {@link Caller}. */
  public static final String CALLER = "lychee.caller";
  private static final Logger LOG = LoggerFactory.getLogger(MemoryTools.class);

  private final MemoryService memory;
  private final McpJsonMapper mapper;
  private final ObjectMapper wire;
  private final String serverNamespace;
  private final Caller fallback;

  /** What one tool does, for a caller already checked against the namespace. */
  @FunctionalInterface
  interface ToolBody {
    Object apply(Caller caller, String namespace, Map<String, Object> arguments);
  }

  /**
   * @param fallback the caller of requests that carry none: {@link Caller#OPEN} for stdio (a local
   *     process the user started), null for HTTP (where a request without a checked key is refused)
   */
  public MemoryTools(MemoryService memory, McpJsonMapper mapper, ObjectMapper wire, String serverNamespace, Caller fallback) {
    this.memory = memory;
    this.mapper = mapper;
    this.wire = wire;
    this.serverNamespace = serverNamespace;
    this.fallback = fallback;
  }

  public List<SyncToolSpecification> specifications() {
    return List.of(
        tool("remember", "Remember conversation turns or a note in long-term memory.", ToolSchemas.REMEMBER, Right.WRITE, this::remember),
        tool("recall", "Recall evidence (records and raw turns, with provenance) for a question.", ToolSchemas.QUERY, Right.READ,
            (caller, ns, args) -> memory.exists(ns) ? memory.recall(ns, query(args)) : Map.of("namespace", ns, "evidence", List.of())),
        tool("ask", "Answer a question from long-term memory, with the evidence used.", ToolSchemas.QUERY, Right.READ,
            (caller, ns, args) -> memory.exists(ns) ? memory.answer(ns, query(args))
                : Map.of("namespace", ns, "answer", "", "evidence", List.of())),
        tool("forget", "Forget one session, or everything of this memory.", ToolSchemas.FORGET, Right.WRITE, this::forget),
        tool("list_sessions", "List the sessions stored in this memory.", ToolSchemas.NONE, Right.READ,
            (caller, ns, args) -> memory.exists(ns) ? memory.sessions(ns, 0, 500) : Map.of("namespace", ns, "items", List.of())),
        tool("status", "What this memory holds and how far background encoding has got: turns, sessions, records, "
            + "segments by state, queue depth, stopped sessions, oldest pending age and last error.", ToolSchemas.NONE, Right.READ,
            (caller, ns, args) -> memory.statusOf(ns)));
  }

  private SyncToolSpecification tool(String name, String description, String schema, Right right,
      ToolBody body) {
    McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description)
        .inputSchema(mapper, schema).build();
    return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
      try {
        Caller caller = caller(exchange);
        String ns = namespaceOf(caller);
        Guard.require(caller, ns, right);
        Object result = body.apply(caller, ns, request.arguments() == null ? Map.of() : request.arguments());
        String text = wire.writeValueAsString(result);
        return CallToolResult.builder().addTextContent(text).structuredContent(wire.readValue(text, Map.class)).build();
      } catch (ApiException e) {
        return error(e.code().wire() + ": " + e.getMessage());
      } catch (IllegalArgumentException e) {
        return error("invalid-request: " + e.getMessage());
      } catch (Exception e) {
        LOG.warn("MCP tool {} failed: {}", name, e.toString());
        return error("internal: the tool failed; it may be retried");
      }
    }).build();
  }

  private Object remember(Caller caller, String ns, Map<String, Object> args) {
    List<TurnInput> turns = new ArrayList<>();
    Object note = args.get("note");
    if (note instanceof String s && !s.isBlank()) {
      turns.add(new TurnInput("user", null, s, null, null));
    }
    if (args.get("turns") instanceof List<?> list) {
      for (Object o : list) {
        TurnInput t = wire.convertValue(o, TurnInput.class);
        turns.add(t);
      }
    }
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("give a 'note' or at least one of 'turns'");
    }
    String session = args.get("session") instanceof String s ? s : "mcp";
    boolean flush = !(args.get("flush") instanceof Boolean b) || b;
    String date = args.get("session_date") instanceof String s ? s : null;
    return memory.addTurns(ns, session, new TurnsRequest(turns, date, flush));
  }

  private Object forget(Caller caller, String ns, Map<String, Object> args) {
    if (Boolean.TRUE.equals(args.get("everything"))) {
      Guard.require(caller, ns, Right.ADMIN);
      return memory.forget(ns);
    }
    if (!(args.get("session") instanceof String s)) {
      throw new IllegalArgumentException("give the 'session' to forget, or everything: true");
    }
    return memory.forget(ns, s);
  }

  private QueryRequest query(Map<String, Object> args) {
    return wire.convertValue(args, QueryRequest.class);
  }

  private String namespaceOf(Caller caller) {
    if (caller.key() != null && caller.key().mcpNamespace() != null) {
      return caller.key().mcpNamespace();
    }
    return serverNamespace;
  }

  private Caller caller(McpSyncServerExchange exchange) {
    Object c = exchange.transportContext() == null ? null : exchange.transportContext().get(CALLER);
    if (c instanceof Caller caller) {
      return caller;
    }
    if (fallback == null) {
      throw new ApiException(ProblemCode.UNAUTHORIZED, "the request carried no checked API key");
    }
    return fallback;
  }

  private static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(message).isError(true).build();
  }
}
