package dev.lychee.server.http;

/** The stable error codes of the API, each with its HTTP status and title. */
public enum ProblemCode {
  MALFORMED_JSON(400, "The body is not valid JSON"),
  INVALID_REQUEST(400, "A field is missing, of the wrong type or out of range"),
  UNKNOWN_FIELD(400, "The body holds a field this route does not know"),
  UNAUTHORIZED(401, "A valid API key is required"),
  FORBIDDEN(403, "The API key does not reach this namespace with this right, or the Host or Origin is refused"),
  NOT_FOUND(404, "No such route"),
  NAMESPACE_NOT_FOUND(404, "The namespace holds no data"),
  SESSION_NOT_FOUND(404, "The session holds no data"),
  ASSET_NOT_FOUND(404, "The web inspector has no such file"),
  NO_EVALUATION(404, "The server was started without an evaluation file"),
  METHOD_NOT_ALLOWED(405, "The route does not take this method"),
  TURN_CONFLICT(409, "A turn index is already stored with another text"),
  BODY_TOO_LARGE(413, "The body is larger than the server accepts"),
  UNSUPPORTED_MEDIA_TYPE(415, "The body must be application/json"),
  QUEUE_FULL(429, "The encoding queue is full; retry later"),
  INTERNAL(500, "The server failed; the request may be retried"),
  UNAVAILABLE(503, "The server is not ready");

  private final int status;
  private final String title;

  ProblemCode(int status, String title) {
    this.status = status;
    this.title = title;
  }

  public int status() {
    return status;
  }

  public String title() {
    return title;
  }

  /**
   * The code for a status that the router or Jetty chose, not a route (no such route, a method the
   * route does not take, a body or URI Jetty refused): the general code of that status.
   */
  public static ProblemCode forStatus(int status) {
    return switch (status) {
      case 404 -> NOT_FOUND;
      case 405 -> METHOD_NOT_ALLOWED;
      case 413 -> BODY_TOO_LARGE;
      case 415 -> UNSUPPORTED_MEDIA_TYPE;
      case 400 -> INVALID_REQUEST;
      case 401 -> UNAUTHORIZED;
      case 403 -> FORBIDDEN;
      case 503 -> UNAVAILABLE;
      default -> status >= 500 ? INTERNAL : INVALID_REQUEST;
    };
  }

  /** The code as clients see it: {@code malformed-json}, {@code namespace-not-found}, ... */
  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
