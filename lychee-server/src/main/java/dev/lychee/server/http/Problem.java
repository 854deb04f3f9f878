package dev.lychee.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * An RFC 9457 problem document ({@code application/problem+json}). {@code code} is the stable,
 * machine-readable name clients switch on; {@code type} is the same code as a URN.
 *
 * @param type {@code urn:lychee:problem:<code>}
 * @param title a short, fixed summary of the code
 * @param status the HTTP status
 * @param detail what went wrong with this request, in words (never a stack trace or a secret)
 * @param instance the request path
 * @param code the stable code
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance, String code) {

  public static final String MEDIA_TYPE = "application/problem+json";

  public Problem {
    Objects.requireNonNull(code, "code");
  }

  static Problem of(ProblemCode code, String detail, String instance) {
    return new Problem("urn:lychee:problem:" + code.wire(), code.title(), code.status(), detail, instance, code.wire());
  }
}
