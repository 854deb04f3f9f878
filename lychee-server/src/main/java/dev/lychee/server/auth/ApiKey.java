package dev.lychee.server.auth;

import java.util.List;
import java.util.Objects;

/**
 * One configured API key: its public id, the SHA-256 of its secret (the secret itself is never
 * kept), the namespaces it reaches and its right there.
 *
 * @param id a public name for logs and errors (never the secret)
 * @param sha256 the lower-case hex SHA-256 of the secret
 * @param namespaces where the key may act, exact names or prefixes
 * @param right what it may do there
 * @param defaultNamespace the namespace MCP tools act on for this key; nullable (then the server's)
 */
public record ApiKey(String id, byte[] sha256, List<NamespacePattern> namespaces, Right right, String defaultNamespace) {

  public ApiKey {
    Objects.requireNonNull(id, "key id");
    if (id.isBlank()) {
      throw new IllegalArgumentException("key id must not be blank");
    }
    Objects.requireNonNull(sha256, "key hash");
    if (sha256.length != 32) {
      throw new IllegalArgumentException("key '" + id + "': the hash must be 32 bytes of SHA-256");
    }
    sha256 = sha256.clone();
    namespaces = List.copyOf(namespaces);
    if (namespaces.isEmpty()) {
      throw new IllegalArgumentException("key '" + id + "' needs at least one namespace");
    }
    Objects.requireNonNull(right, "right");
    if (defaultNamespace != null) {
      dev.lychee.api.Checks.name(defaultNamespace, "key '" + id + "': default namespace");
    }
    if (defaultNamespace != null && namespaces.stream().noneMatch(p -> p.matches(defaultNamespace))) {
      throw new IllegalArgumentException("key '" + id + "': default namespace '" + defaultNamespace
          + "' is outside its namespaces");
    }
  }

  @Override
  public byte[] sha256() {
    return sha256.clone();
  }

  /** True when the key may do {@code needed} in {@code namespace}. */
  public boolean allows(String namespace, Right needed) {
    return right.covers(needed) && namespaces.stream().anyMatch(p -> p.matches(namespace));
  }

  /** The namespace MCP acts on: the configured default, or the single exact namespace, or null. */
  public String mcpNamespace() {
    if (defaultNamespace != null) {
      return defaultNamespace;
    }
    if (namespaces.size() == 1 && !namespaces.get(0).isPrefix()) {
      return namespaces.get(0).text();
    }
    return null;
  }

  /** Never shows the hash. */
  @Override
  public String toString() {
    return "ApiKey[" + id + ", " + right.name().toLowerCase(java.util.Locale.ROOT) + " on "
        + namespaces.stream().map(NamespacePattern::text).toList() + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ApiKey k && k.id.equals(id) && java.util.Arrays.equals(k.sha256, sha256);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }
}
