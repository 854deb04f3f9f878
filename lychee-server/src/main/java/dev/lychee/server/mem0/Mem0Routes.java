package dev.lychee.server.mem0;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.MemoryRecord;
import dev.lychee.server.api.EvidenceView;
import dev.lychee.server.api.QueryRequest;
import dev.lychee.server.api.RecallView;
import dev.lychee.server.api.TurnInput;
import dev.lychee.server.api.TurnsAccepted;
import dev.lychee.server.api.TurnsRequest;
import dev.lychee.server.auth.Caller;
import dev.lychee.server.auth.Right;
import dev.lychee.server.http.Access;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.Guard;
import dev.lychee.server.http.JsonBodies;
import dev.lychee.server.http.ProblemCode;
import dev.lychee.server.http.Responder;
import dev.lychee.server.http.RouteSpec;
import dev.lychee.server.http.Routes;
import dev.lychee.server.memory.MemoryService;
import dev.lychee.server.memory.Names;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * mem0-compatible routes, so code written for mem0's hosted API switches by changing the host:
 * {@code user_id} is the namespace and {@code run_id} the session. Bodies are read leniently (mem0
 * clients send options Lychee does not use), but the fields Lychee uses are type-checked.
 */
public final class Mem0Routes implements Routes {
  /** The session of turns added without a {@code run_id}. */
  static final String DEFAULT_SESSION = "mem0";

  private final MemoryService memory;
  private final Responder out;
  private final ObjectMapper lenient = new ObjectMapper();

  public Mem0Routes(MemoryService memory, JsonBodies json, Responder out) {
    this.memory = memory;
    this.out = out;
  }

  @Override
  public List<RouteSpec> routes() {
    return List.of(
        new RouteSpec(GET, "/v1/ping", Access.any(Right.READ), false,
            ctx -> out.json(ctx, 200, Map.of("status", "ok", "service", "lychee"))),
        new RouteSpec(POST, "/v3/memories/add", Access.handler(Right.WRITE), true, this::add),
        new RouteSpec(POST, "/v3/memories", Access.handler(Right.READ), true, this::getAll),
        new RouteSpec(POST, "/v3/memories/search", Access.handler(Right.READ), true, this::search),
        new RouteSpec(DELETE, "/v1/memories", Access.handler(Right.WRITE), false, this::deleteAll));
  }

  private void add(Context ctx) {
    JsonNode body = body(ctx);
    String ns = userId(body, ctx, Right.WRITE);
    String session = optionalName(body, "run_id", DEFAULT_SESSION);
    JsonNode messages = body.get("messages");
    List<TurnInput> turns = new ArrayList<>();
    if (messages != null && messages.isTextual()) {
      turns.add(new TurnInput("user", null, messages.asText(), null, null));
    } else if (messages != null && messages.isArray()) {
      for (JsonNode m : messages) {
        JsonNode content = m.get("content");
        if (content == null || !content.isTextual()) {
          throw new ApiException(ProblemCode.INVALID_REQUEST, "every message needs a string 'content'");
        }
        String role = m.hasNonNull("role") ? m.get("role").asText() : "user";
        turns.add(new TurnInput(role, m.hasNonNull("name") ? m.get("name").asText() : null, content.asText(), null, null));
      }
    }
    if (turns.isEmpty()) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'messages' must be a non-empty array of {role, content}");
    }
    TurnsAccepted r = memory.addTurns(ns, session, new TurnsRequest(turns, null, true));
    List<Map<String, Object>> events = new ArrayList<>();
    for (TurnInput t : turns.subList(Math.max(0, turns.size() - r.stored()), turns.size())) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("event", "ADD");
      e.put("memory", t.text());
      e.put("user_id", ns);
      e.put("run_id", session);
      events.add(e);
    }
    out.json(ctx, 200, events);
  }

  private void getAll(Context ctx) {
    JsonNode body = body(ctx);
    JsonNode filters = filters(body);
    String ns = userId(filters, ctx, Right.READ);
    String session = optionalName(filters, "run_id", null);
    int page = intQuery(ctx, "page", 1);
    int size = intQuery(ctx, "page_size", 100);
    if (!memory.exists(ns)) {
      out.json(ctx, 200, paged(List.of(), 0, page, size));
      return;
    }
    List<Map<String, Object>> all = memory.memory().store().records(ns).stream()
        .filter(r -> session == null || r.evidence().stream().anyMatch(t -> t.session().equals(session)))
        .map(r -> memoryOf(r, ns)).toList();
    int from = Math.min(all.size(), (page - 1) * size);
    out.json(ctx, 200, paged(all.subList(from, Math.min(all.size(), from + size)), all.size(), page, size));
  }

  private void search(Context ctx) {
    JsonNode body = body(ctx);
    JsonNode filters = filters(body);
    String ns = userId(filters, ctx, Right.READ);
    String session = optionalName(filters, "run_id", null);
    JsonNode query = body.get("query");
    if (query == null || !query.isTextual() || query.asText().isBlank()) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'query' must be a non-blank string");
    }
    int topK = body.has("top_k") ? intField(body, "top_k") : 10;
    if (!memory.exists(ns)) {
      out.json(ctx, 200, Map.of("results", List.of()));
      return;
    }
    int k = Math.min(QueryRequest.MAX_K, topK);
    // mem0's run_id narrows the search space, it does not filter a top-k afterwards: the namespace's best
    // items may all lie in other sessions, so search as deep as a request may, keep the run's items (those
    // of its segments, and records of other sessions that cite its turns) and cut to top_k
    RecallView r = memory.recall(ns, new QueryRequest(query.asText(), session == null ? k : QueryRequest.MAX_K, null, null));
    List<Map<String, Object>> results = new ArrayList<>();
    for (EvidenceView e : r.evidence()) {
      if (results.size() == k) {
        break;
      }
      if (session != null && !ofRun(e, session)) {
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", e.id());
      m.put("memory", e.text());
      m.put("score", e.score());
      m.put("user_id", ns);
      m.put("run_id", session != null ? session : e.session());
      m.put("memory_type", e.memoryType());
      m.put("categories", List.of());
      m.put("metadata", Map.of("kind", e.kind(), "turns", e.turns()));
      results.add(m);
    }
    out.json(ctx, 200, Map.of("results", results));
  }

  /** True when the item belongs to the run: it was written from the run's turns, or it cites one of them. */
  private static boolean ofRun(EvidenceView e, String session) {
    return session.equals(e.session()) || e.turns().stream().anyMatch(t -> session.equals(t.session()));
  }

  private void deleteAll(Context ctx) {
    String ns = ctx.queryParam("user_id");
    if (ns == null) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'user_id' is required (it names the namespace)");
    }
    Names.check("user_id", ns);
    String session = ctx.queryParam("run_id");
    Caller caller = ctx.attribute(Guard.CALLER);
    Guard.require(caller, ns, session == null ? Right.ADMIN : Right.WRITE);
    if (memory.exists(ns)) {
      if (session == null) {
        memory.forget(ns);
      } else if (memory.memory().store().nextTurnIndex(ns, Names.check("run_id", session)) > 0) {
        memory.forget(ns, session);
      }
    }
    out.json(ctx, 200, Map.of("message", "Memories deleted successfully!"));
  }

  private JsonNode body(Context ctx) {
    try {
      JsonNode n = lenient.readTree(ctx.bodyAsBytes());
      if (n == null || !n.isObject()) {
        throw new ApiException(ProblemCode.INVALID_REQUEST, "the body must be a JSON object");
      }
      return n;
    } catch (IOException e) {
      throw new ApiException(ProblemCode.MALFORMED_JSON, "the body is not valid JSON");
    }
  }

  private static JsonNode filters(JsonNode body) {
    JsonNode f = body.get("filters");
    if (f != null && !f.isObject()) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'filters' must be an object");
    }
    return f != null ? f : body;
  }

  private static String userId(JsonNode node, Context ctx, Right right) {
    JsonNode u = node.get("user_id");
    if (u == null || !u.isTextual()) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'user_id' must be a string (it names the namespace)");
    }
    String ns = Names.check("user_id", u.asText());
    Guard.require(ctx.attribute(Guard.CALLER), ns, right);
    return ns;
  }

  private static String optionalName(JsonNode node, String field, String dflt) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isTextual()) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'" + field + "' must be a string");
    }
    return Names.check(field, v.asText());
  }

  private static int intField(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (!v.isInt() || v.asInt() < 1) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "'" + field + "' must be a positive integer");
    }
    return v.asInt();
  }

  private static int intQuery(Context ctx, String name, int dflt) {
    String v = ctx.queryParam(name);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < 1 || n > 1000) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, name + " must be an integer between 1 and 1000");
    }
  }

  private static Map<String, Object> paged(List<Map<String, Object>> results, int count, int page, int size) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", count);
    m.put("next", page * size < count ? "?page=" + (page + 1) + "&page_size=" + size : null);
    m.put("previous", page > 1 ? "?page=" + (page - 1) + "&page_size=" + size : null);
    m.put("results", results);
    return m;
  }

  private static Map<String, Object> memoryOf(MemoryRecord r, String ns) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.id());
    m.put("memory", r.text());
    m.put("user_id", ns);
    m.put("run_id", r.session());
    m.put("memory_type", r.type().wireName());
    m.put("categories", r.tags());
    m.put("created_at", r.createdAt() == null ? null : r.createdAt().toString());
    m.put("metadata", Map.of("entities", r.entities()));
    return m;
  }
}
