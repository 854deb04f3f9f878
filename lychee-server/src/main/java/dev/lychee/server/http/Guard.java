package dev.lychee.server.http;

import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.auth.Caller;
import dev.lychee.server.auth.Right;
import io.javalin.http.Context;
import java.util.Locale;

/**
 * Runs before every matched route: refuses foreign {@code Host} and {@code Origin} headers
 * ({@link OriginPolicy}, 403), authenticates the key (401), checks the route's access rule
 * against the namespace in the path (403), and rejects non-JSON bodies (415). The caller is left
 * on the request for handlers that find their namespace in the body.
 */
public final class Guard {
  /** Request attribute holding the {@link Caller}. */
  public static final String CALLER = "lychee.caller";

  private final ApiKeys keys;
  private final OriginPolicy origins;

  public Guard(ApiKeys keys, OriginPolicy origins) {
    this.keys = java.util.Objects.requireNonNull(keys, "keys");
    this.origins = java.util.Objects.requireNonNull(origins, "origins");
  }

  public void check(Context ctx) {
    // before anything else, public routes included: a rebound page must not even read /metrics
    checkOrigin(ctx.header("Host"), ctx.header("Origin"));
    io.javalin.router.Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
    Access access = matched == null ? null : matched.metadata(Access.class);
    if (access == null) {
      // fail closed: a route mounted without an access rule is never served
      throw new ApiException(ProblemCode.FORBIDDEN, "this route has no access rule");
    }
    if (access.scope() == Access.Scope.PUBLIC) {
      return;
    }
    Caller caller = authenticate(ctx.header("Authorization"), ctx.header("X-API-Key"));
    ctx.attribute(CALLER, caller);
    switch (access.scope()) {
      case PATH -> require(caller, ctx.pathParam("ns"), access.right());
      case ANY -> {
        if (!caller.holds(access.right())) {
          throw new ApiException(ProblemCode.FORBIDDEN, "this route needs the " + name(access.right()) + " right");
        }
      }
      default -> { }
    }
    if (matched.metadata(JsonRoute.class) != null) {
      requireJson(ctx);
    }
  }

  /** 403 when {@link OriginPolicy} refuses these {@code Host} and {@code Origin} headers. */
  public void checkOrigin(String host, String origin) {
    origins.refusal(host, origin).ifPresent(detail -> {
      throw new ApiException(ProblemCode.FORBIDDEN, detail);
    });
  }

  /** The caller a presented key stands for; 401 when keys are configured and it matches none. */
  public Caller authenticate(String authorization, String xApiKey) {
    if (keys.isEmpty()) {
      return Caller.OPEN;
    }
    String secret = PresentedKey.from(authorization, xApiKey);
    if (secret == null) {
      throw new ApiException(ProblemCode.UNAUTHORIZED, "send an API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'",
          PresentedKey.CHALLENGE);
    }
    return keys.authenticate(secret).map(Caller::new).orElseThrow(() -> new ApiException(
        ProblemCode.UNAUTHORIZED, "the API key is not valid", PresentedKey.CHALLENGE));
  }

  /** 403 unless {@code caller} may do {@code right} in {@code ns}. */
  public static void require(Caller caller, String ns, Right right) {
    if (!caller.allows(ns, right)) {
      throw new ApiException(ProblemCode.FORBIDDEN, "the API key '" + caller.name() + "' has no " + name(right)
          + " right on namespace '" + ns + "'");
    }
  }

  private static void requireJson(Context ctx) {
    String type = ctx.contentType();
    String base = type == null ? "" : type.split(";")[0].trim().toLowerCase(Locale.ROOT);
    if (!base.equals("application/json") && !base.endsWith("+json")) {
      throw new ApiException(ProblemCode.UNSUPPORTED_MEDIA_TYPE, "send the body as application/json"
          + (type == null ? " (no Content-Type was given)" : " (got " + base + ")"));
    }
  }

  private static String name(Right r) {
    return r.name().toLowerCase(Locale.ROOT);
  }
}
