package dev.lychee.server.http;

import java.util.Locale;

/**
 * Finds the API key a client sent: {@code Authorization: Bearer <key>}, {@code Authorization:
 * Token <key>} (mem0's clients) or {@code X-API-Key: <key>}. The value is handed straight to the
 * key check and never logged or echoed.
 */
public final class PresentedKey {
  private PresentedKey() {}

  /** The presented secret, or null when none was sent. */
  public static String from(String authorization, String xApiKey) {
    if (authorization != null) {
      String a = authorization.trim();
      int sp = a.indexOf(' ');
      if (sp > 0) {
        String scheme = a.substring(0, sp).toLowerCase(Locale.ROOT);
        if (scheme.equals("bearer") || scheme.equals("token")) {
          return a.substring(sp + 1).trim();
        }
      }
      return "";
    }
    return xApiKey == null ? null : xApiKey.trim();
  }
}
