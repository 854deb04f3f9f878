package dev.lychee.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;

import dev.lychee.server.api.QueryRequest;
import dev.lychee.server.api.TurnsRequest;
import dev.lychee.server.auth.Caller;
import dev.lychee.server.auth.Right;
import dev.lychee.server.memory.MemoryService;
import io.javalin.http.Context;
import java.util.List;

/** REST v1: turns, recall, answer, status, listings, deletes and encoding, all under {@code /v1/namespaces/{ns}}. */
public final class V1Routes implements Routes {
  static final String NS = "/v1/namespaces/{ns}";

  private final MemoryService memory;
  private final JsonBodies json;
  private final Responder out;

  public V1Routes(MemoryService memory, JsonBodies json, Responder out) {
    this.memory = memory;
    this.json = json;
    this.out = out;
  }

  @Override
  public List<RouteSpec> routes() {
    return List.of(
        new RouteSpec(POST, NS + "/sessions/{session}/turns", Access.path(Right.WRITE), true, this::turns),
        new RouteSpec(GET, "/v1/namespaces", Access.any(Right.READ), false, ctx -> {
          Paging p = Paging.of(ctx);
          Caller caller = ctx.attribute(Guard.CALLER);
          out.json(ctx, 200, memory.namespaces(n -> caller.allows(n, Right.READ), p.offset(), p.limit()));
        }),
        new RouteSpec(GET, NS + "/sessions/{session}/turns", Access.path(Right.READ), false, ctx -> {
          Paging p = Paging.of(ctx);
          out.json(ctx, 200, memory.turns(ctx.pathParam("ns"), ctx.pathParam("session"), p.offset(), p.limit()));
        }),
        new RouteSpec(POST, NS + "/sessions/{session}/flush", Access.path(Right.WRITE), false,
            ctx -> out.json(ctx, 200, memory.flush(ctx.pathParam("ns"), ctx.pathParam("session")))),
        new RouteSpec(POST, NS + "/recall", Access.path(Right.READ), true,
            ctx -> out.json(ctx, 200, memory.recall(ctx.pathParam("ns"), json.read(ctx, QueryRequest.class)))),
        new RouteSpec(POST, NS + "/answer", Access.path(Right.READ), true,
            ctx -> out.json(ctx, 200, memory.answer(ctx.pathParam("ns"), json.read(ctx, QueryRequest.class)))),
        new RouteSpec(GET, NS + "/status", Access.path(Right.READ), false,
            ctx -> out.json(ctx, 200, memory.status(ctx.pathParam("ns")))),
        new RouteSpec(POST, NS + "/await-idle", Access.path(Right.READ), false,
            ctx -> out.json(ctx, 200, memory.awaitIdle(ctx.pathParam("ns"), IdleWait.of(ctx)))),
        new RouteSpec(GET, NS + "/sessions", Access.path(Right.READ), false, ctx -> {
          Paging p = Paging.of(ctx);
          out.json(ctx, 200, memory.sessions(ctx.pathParam("ns"), p.offset(), p.limit()));
        }),
        new RouteSpec(GET, NS + "/segments", Access.path(Right.READ), false, ctx -> {
          Paging p = Paging.of(ctx);
          out.json(ctx, 200, memory.segments(ctx.pathParam("ns"), ctx.queryParam("session"), p.offset(), p.limit()));
        }),
        new RouteSpec(GET, NS + "/records", Access.path(Right.READ), false, ctx -> {
          Paging p = Paging.of(ctx);
          out.json(ctx, 200, memory.records(ctx.pathParam("ns"), ctx.queryParam("segment"), p.offset(), p.limit()));
        }),
        new RouteSpec(GET, NS + "/nodes", Access.path(Right.READ), false, ctx -> {
          Paging p = Paging.of(ctx);
          out.json(ctx, 200, memory.nodes(ctx.pathParam("ns"), ctx.queryParam("kind"), p.offset(), p.limit()));
        }),
        new RouteSpec(POST, NS + "/encode-pending", Access.path(Right.WRITE), false,
            ctx -> out.json(ctx, 200, memory.encodePending(ctx.pathParam("ns")))),
        new RouteSpec(DELETE, NS + "/sessions/{session}", Access.path(Right.WRITE), false,
            ctx -> out.json(ctx, 200, memory.forget(ctx.pathParam("ns"), ctx.pathParam("session")))),
        new RouteSpec(DELETE, NS, Access.path(Right.ADMIN), false,
            ctx -> out.json(ctx, 200, memory.forget(ctx.pathParam("ns")))));
  }

  private void turns(Context ctx) {
    TurnsRequest req = json.read(ctx, TurnsRequest.class);
    out.json(ctx, 202, memory.addTurns(ctx.pathParam("ns"), ctx.pathParam("session"), req));
  }
}
