package dev.lychee.provider.secrets;

import java.net.URI;
import java.util.regex.Pattern;

/**
 * Removes secrets from text that may be printed: the user-info of a URL ({@code
 * https://user:key@host/}), query parameters that carry keys or tokens, and the value of a
 * configured key wherever it appears. Used for every {@code toString()}, log line and error
 * message that names an endpoint.
 */
public final class Redaction {
  /** What stands in for a removed secret. */
  public static final String MASK = "***";

  private static final Pattern SECRET_PARAM = Pattern.compile(
      "(?i)([?&](?:api[-_]?key|key|token|access[-_]?token|auth|password|secret|sig|signature)=)[^&#]*");
  private static final Pattern USER_INFO = Pattern.compile("(?i)(\\b[a-z][a-z0-9+.-]*://)[^/@\\s]*@");

  private Redaction() {}

  /** {@code url} without user-info and secret query values; null stays null. */
  public static String url(URI url) {
    return url == null ? null : url(url.toString());
  }

  /** The same for a URL given as text (or any text holding URLs). */
  public static String url(String text) {
    if (text == null) {
      return null;
    }
    String s = USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
    return SECRET_PARAM.matcher(s).replaceAll("$1" + MASK);
  }

  /** A key for display: {@code ***} when set, {@code (none)} when blank. Never any of its characters. */
  public static String key(String key) {
    return key == null || key.isBlank() ? "(none)" : MASK;
  }

  /**
   * {@code text} with URLs redacted and every occurrence of {@code secret} (if at least 4 chars)
   * masked: for messages that quote a server's or library's text.
   */
  public static String text(String text, String secret) {
    String s = url(text);
    if (s != null && secret != null && secret.length() >= 4) {
      s = s.replace(secret, MASK);
    }
    return s;
  }
}
