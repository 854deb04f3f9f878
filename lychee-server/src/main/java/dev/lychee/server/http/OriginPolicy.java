package dev.lychee.server.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which requests a browser may send the server, judged from their {@code Host} and {@code Origin}
 * headers before any key is looked at. This is the defence against DNS rebinding and cross-site
 * requests (the MCP streamable-HTTP transport requires it).
 *
 * <ul>
 *   <li><b>Without keys</b> (open, loopback only): the {@code Host} must name a loopback host
 *       ({@code localhost}, {@code 127.x.x.x}, {@code [::1]}) or the configured bind host, and an
 *       {@code Origin}, when sent, must be a loopback origin ({@code http://localhost:3000},
 *       {@code http://127.0.0.1:8080}, ...). A page at {@code http://evil.example} whose name the
 *       attacker's DNS turns into 127.0.0.1 sends {@code Host: evil.example}: it is refused.
 *   <li><b>With keys</b>: the key is the gate (a browser never attaches it on its own), so any
 *       {@code Host} is accepted; an {@code Origin}, when sent, must be a loopback origin, the
 *       server's own origin (its authority equals the {@code Host}, as for the web inspector), or one
 *       of the configured allowed origins (a reverse proxy that rewrites {@code Host}).
 * </ul>
 *
 * <p>No request without an {@code Origin} is refused for its {@code Origin}: clients other than
 * browsers do not send one, and browsers omit it only on same-origin reads. The server never sends
 * CORS headers, so no other site can read an answer whatever this policy lets through.
 */
public final class OriginPolicy {
  private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
  private static final int SHOWN = 100;

  private final boolean open;
  private final String boundHost;
  private final Set<String> allowedOrigins;

  /**
   * @param open true when the server has no API keys
   * @param boundHost the configured bind host (a name or an address)
   * @param allowedOrigins further origins accepted on a server with keys, each {@code scheme://host[:port]}
   */
  public OriginPolicy(boolean open, String boundHost, List<String> allowedOrigins) {
    this.open = open;
    this.boundHost = hostOnly(boundHost);
    this.allowedOrigins = Set.copyOf(allowedOrigins.stream().map(OriginPolicy::normalizeOrigin).toList());
  }

  /**
   * Why the request must be refused (the 403 detail), or empty when it may go on.
   *
   * @param host the {@code Host} header; null when absent (no browser omits it)
   * @param origin the {@code Origin} header; null when absent
   */
  public Optional<String> refusal(String host, String origin) {
    if (open && host != null && !loopbackName(hostOnly(host))) {
      return Optional.of("this server has no API keys, so it answers only requests addressed to localhost, 127.0.0.1, [::1]"
          + " or its own host; this one was addressed to '" + shown(host) + "' (a web page that reached the server"
          + " through DNS rebinding looks like this)");
    }
    if (origin == null || acceptedOrigin(origin, host)) {
      return Optional.empty();
    }
    return Optional.of(open
        ? "this server has no API keys, so it answers browser requests only from loopback pages (http://localhost,"
            + " http://127.0.0.1, http://[::1]); this one came from '" + shown(origin) + "'"
        : "requests from the web origin '" + shown(origin) + "' are refused: only the server's own pages, loopback"
            + " pages and the origins given with --allowed-origin may call it");
  }

  private boolean acceptedOrigin(String origin, String host) {
    URI uri = parseOrigin(origin);
    if (uri == null) {
      return false; // "null" (sandboxed frames, file: pages) and garbage are never trusted
    }
    if (loopbackName(hostOnly(uri.getHost()))) {
      return true;
    }
    if (open) {
      return false;
    }
    String authority = uri.getRawAuthority().toLowerCase(Locale.ROOT);
    return host != null && authority.equals(host.trim().toLowerCase(Locale.ROOT))
        || allowedOrigins.contains((uri.getScheme() + "://" + authority).toLowerCase(Locale.ROOT));
  }

  /** True for {@code localhost}, 127.0.0.0/8, {@code ::1} and (open server) the bound host, decided without any DNS look-up. */
  private boolean loopbackName(String host) {
    if (host.isEmpty()) {
      return false;
    }
    // the bound host counts only for an open server, where it is itself a loopback name
    if (host.equals("localhost") || open && host.equals(boundHost)) {
      return true;
    }
    var v4 = IPV4.matcher(host);
    if (v4.matches()) {
      for (int i = 1; i <= 4; i++) {
        if (Integer.parseInt(v4.group(i)) > 255) {
          return false;
        }
      }
      return v4.group(1).equals("127");
    }
    if (host.indexOf(':') >= 0) {
      // an IPv6 literal; a string holding ':' is parsed as a literal, never looked up
      try {
        return InetAddress.getByName("[" + host + "]").isLoopbackAddress();
      } catch (UnknownHostException e) {
        return false;
      }
    }
    return false; // any other name could be the attacker's, whatever it resolves to now
  }

  /**
   * The host of a {@code Host} header or a bind address, lower-case, without port, brackets or a
   * final dot: {@code "[::1]:8080"} gives {@code "::1"}.
   */
  static String hostOnly(String hostHeader) {
    if (hostHeader == null) {
      return "";
    }
    String h = hostHeader.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      h = end < 0 ? h.substring(1) : h.substring(1, end);
    } else if (h.indexOf(':') == h.lastIndexOf(':')) {
      // one colon: name:port; several: a bare IPv6 literal (a bind address such as ::1)
      int colon = h.indexOf(':');
      h = colon < 0 ? h : h.substring(0, colon);
    }
    return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
  }

  private static URI parseOrigin(String origin) {
    try {
      URI uri = new URI(origin.trim());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        return null;
      }
      return uri;
    } catch (URISyntaxException e) {
      return null;
    }
  }

  /**
   * An origin as compared: {@code scheme://host[:port]}, lower-case, without a trailing slash.
   *
   * @throws IllegalArgumentException when {@code origin} is not an http or https origin
   */
  public static String normalizeOrigin(String origin) {
    URI uri = origin == null ? null : parseOrigin(origin);
    String rest = uri == null ? "" : uri.getRawPath() == null ? "" : uri.getRawPath();
    if (uri == null || !(rest.isEmpty() || rest.equals("/")) || uri.getRawQuery() != null || uri.getRawFragment() != null
        || uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("an allowed origin must be scheme://host[:port] with scheme http or https, "
          + "as a browser sends it (got '" + shown(String.valueOf(origin)) + "')");
    }
    return (uri.getScheme() + "://" + uri.getRawAuthority()).toLowerCase(Locale.ROOT);
  }

  /** Header text as it may appear in a detail: bounded, one line. */
  private static String shown(String s) {
    String one = s.replaceAll("[\\p{Cntrl}]", "?");
    return one.length() <= SHOWN ? one : one.substring(0, SHOWN) + "...";
  }
}
