package dev.lychee.server.auth;

import java.util.Locale;

/** What a key may do inside its namespaces. Rights are cumulative: admin implies write implies read. */
public enum Right {
  /** Recall, answer, status and listings. */
  READ,
  /** Everything of READ, plus adding turns, flushing, encoding and forgetting a session. */
  WRITE,
  /** Everything of WRITE, plus forgetting a whole namespace and reading server metrics. */
  ADMIN;

  /** True when holding this right is enough for {@code needed}. */
  public boolean covers(Right needed) {
    return ordinal() >= needed.ordinal();
  }

  /** Parses {@code read}, {@code write} or {@code admin} (case-insensitive). */
  public static Right parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("unknown right '" + text + "' (expected read, write or admin)");
    }
  }
}
