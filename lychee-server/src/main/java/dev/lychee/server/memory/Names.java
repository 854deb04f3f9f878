package dev.lychee.server.memory;

import dev.lychee.api.Checks;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.ProblemCode;

/**
 * The names the server accepts for namespaces and sessions: exactly the library's
 * ({@link Checks#name}: at most {@value Checks#MAX_NAME_LENGTH} chars, no control character, at
 * least one visible character), so that every namespace the library, the CLI or an adapter stored
 * (ADK's {@code <app>/<user>}, {@code Alice Smith}, non-ASCII names) can be read and deleted over
 * HTTP and MCP. In a path a name is percent-encoded as UTF-8 ({@code /} as {@code %2F}); handlers
 * see the decoded value. Anything else is a 400 before it reaches a store.
 */
public final class Names {
  private Names() {}

  /** {@code value} if it is a valid name, else an {@link ApiException} naming {@code what} and the broken rule. */
  public static String check(String what, String value) {
    if (value == null) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, what + " is missing");
    }
    try {
      return Checks.name(value, what);
    } catch (IllegalArgumentException e) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, e.getMessage());
    }
  }
}
