package dev.lychee.server.http;

import io.javalin.http.Context;

/** Writes JSON and problem responses in one format. */
public final class Responder {
  private final JsonBodies json;

  public Responder(JsonBodies json) {
    this.json = json;
  }

  public void json(Context ctx, int status, Object body) {
    ctx.status(status).contentType("application/json").result(json.write(body));
  }

  public void problem(Context ctx, ProblemCode code, String detail) {
    ctx.status(code.status()).contentType(Problem.MEDIA_TYPE).result(json.write(Problem.of(code, detail, ctx.path())));
  }
}
