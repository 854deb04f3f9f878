package dev.lychee.server.auth;

/**
 * Who sent a request: a configured key, or anyone when the server runs without keys (allowed only
 * on a loopback address).
 *
 * @param key the key; null for the open (keyless) mode
 */
public record Caller(ApiKey key) {

  /** The caller of a keyless server: every namespace, every right. */
  public static final Caller OPEN = new Caller(null);

  /** True when this caller may do {@code needed} in {@code namespace}. */
  public boolean allows(String namespace, Right needed) {
    return key == null || key.allows(namespace, needed);
  }

  /** True when this caller holds {@code needed} on at least one namespace. */
  public boolean holds(Right needed) {
    return key == null || key.right().covers(needed);
  }

  /** The key id for logs, or "open". */
  public String name() {
    return key == null ? "open" : key.id();
  }
}
