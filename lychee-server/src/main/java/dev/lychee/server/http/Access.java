package dev.lychee.server.http;

import dev.lychee.server.auth.Right;
import io.javalin.router.EndpointMetadata;

/**
 * Who may call a route, attached to each endpoint and checked before its handler runs.
 *
 * @param right the right needed; null for a public route
 * @param scope where the namespace comes from
 */
public record Access(Right right, Scope scope) implements EndpointMetadata {

  /** Where a route's namespace is found. */
  public enum Scope {
    /** No key needed (health, readiness, the OpenAPI document). */
    PUBLIC,
    /** The {@code {ns}} path parameter; checked before the handler. */
    PATH,
    /** The body or query (mem0 routes); the handler checks it, after authentication. */
    HANDLER,
    /** Not about one namespace (metrics): the key must hold the right somewhere. */
    ANY
  }

  public static Access open() {
    return new Access(null, Scope.PUBLIC);
  }

  public static Access path(Right right) {
    return new Access(right, Scope.PATH);
  }

  public static Access handler(Right right) {
    return new Access(right, Scope.HANDLER);
  }

  public static Access any(Right right) {
    return new Access(right, Scope.ANY);
  }
}
