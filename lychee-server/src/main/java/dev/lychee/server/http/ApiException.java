package dev.lychee.server.http;

import java.util.Map;
import java.util.Objects;

/** Thrown by handlers to answer with a problem document; {@code headers} are added to the response. */
public final class ApiException extends RuntimeException {
  private final ProblemCode code;
  private final transient Map<String, String> headers;

  public ApiException(ProblemCode code, String detail) {
    this(code, detail, Map.of());
  }

  public ApiException(ProblemCode code, String detail, Map<String, String> headers) {
    super(detail, null, false, false);
    this.code = Objects.requireNonNull(code, "code");
    this.headers = Map.copyOf(headers);
  }

  public ProblemCode code() {
    return code;
  }

  public Map<String, String> headers() {
    return headers;
  }
}
