package dev.lychee.server.memory;

import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.ProblemCode;
import java.util.regex.Pattern;

/**
 * The names the server accepts for namespaces and sessions: 1 to 128 characters of letters,
 * digits and {@code . _ - : @ +} (so e-mail addresses and mem0 user ids fit). Anything else is a
 * 400 before it reaches a store.
 */
public final class Names {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:@+-]{1,128}");

  private Names() {}

  /** {@code value} if it is a valid name, else an {@link ApiException} naming {@code what}. */
  public static String check(String what, String value) {
    if (value == null || !NAME.matcher(value).matches()) {
      throw new ApiException(ProblemCode.INVALID_REQUEST, what + " must be 1-128 characters of letters, digits and . _ - : @ +"
          + (value == null ? " (missing)" : ""));
    }
    return value;
  }
}
