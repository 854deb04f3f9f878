package dev.lychee.server.http;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds the API key a client sent: {@code Authorization: Bearer <key>}, {@code Authorization:
 * Token <key>} (mem0's clients) or {@code X-API-Key: <key>}. An {@code Authorization} header in
 * another scheme (a reverse proxy's {@code Basic} credentials, say) does not hide an {@code
 * X-API-Key}. The value is handed straight to the key check and never logged or echoed.
 */
public final class PresentedKey {
  /** The challenge a 401 carries. */
  static final Map<String, String> CHALLENGE = Map.of("WWW-Authenticate", "Bearer realm=\"lychee\"");
  /**
   * IANA-registered HTTP authentication schemes: only these are named in an error, since the first
   * word of an unknown header could be a secret.
   */
  private static final Set<String> KNOWN_SCHEMES = Set.of("basic", "digest", "negotiate", "ntlm", "hoba", "mutual",
      "vapid", "scram-sha-1", "scram-sha-256", "dpop", "gnap", "privatetoken", "concealed", "aws4-hmac-sha256");

  private PresentedKey() {}

  /**
   * The presented secret, or null when none was sent.
   *
   * @throws ApiException 401 when the only credentials are an {@code Authorization} header in a
   *     scheme that carries no Lychee key
   */
  public static String from(String authorization, String xApiKey) {
    if (authorization != null && !authorization.isBlank()) {
      String a = authorization.trim();
      int sp = a.indexOf(' ');
      String scheme = (sp > 0 ? a.substring(0, sp) : a).toLowerCase(Locale.ROOT);
      if (scheme.equals("bearer") || scheme.equals("token")) {
        return sp > 0 ? a.substring(sp + 1).trim() : "";
      }
      if (xApiKey == null) {
        String which = sp > 0 && KNOWN_SCHEMES.contains(scheme) ? "unsupported Authorization scheme '" + scheme + "'"
            : sp > 0 ? "unsupported Authorization scheme" : "the Authorization header has no scheme";
        throw new ApiException(ProblemCode.UNAUTHORIZED, which + "; send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'",
            CHALLENGE);
      }
      // another scheme is someone else's credentials (a proxy's Basic auth): the key is in X-API-Key
    }
    return xApiKey == null ? null : xApiKey.trim();
  }
}
