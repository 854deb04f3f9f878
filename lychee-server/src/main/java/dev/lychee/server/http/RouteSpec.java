package dev.lychee.server.http;

import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import java.util.Objects;

/**
 * One route of the server: method, path (Javalin syntax, {@code {ns}}), access rule and handler.
 *
 * @param jsonBody true when the route reads a JSON body (then non-JSON content types get 415)
 */
public record RouteSpec(HandlerType method, String path, Access access, boolean jsonBody, Handler handler) {
  public RouteSpec {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(access, "access");
    Objects.requireNonNull(handler, "handler");
  }

  /** The path in OpenAPI form (Javalin and OpenAPI both write parameters as {@code {name}}). */
  public String openApiPath() {
    return path;
  }
}
