package dev.lychee.server.http;

import io.javalin.http.Context;

/** {@code offset} and {@code limit} query parameters of listings, validated. */
public record Paging(int offset, int limit) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 500;

  public static Paging of(Context ctx) {
    int offset = intParam(ctx, "offset", 0);
    int limit = intParam(ctx, "limit", DEFAULT_LIMIT);
    if (offset < 0) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "offset must be >= 0: " + offset);
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, "limit must be between 1 and " + MAX_LIMIT + ": " + limit);
    }
    return new Paging(offset, limit);
  }

  private static int intParam(Context ctx, String name, int dflt) {
    String v = ctx.queryParam(name);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, name + " must be an integer: '" + v + "'");
    }
  }
}
