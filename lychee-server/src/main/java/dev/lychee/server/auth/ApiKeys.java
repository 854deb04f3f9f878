package dev.lychee.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The configured keys. A presented secret is hashed and compared with every stored hash in
 * constant time (no early exit, no map look-up keyed by the secret), so timing tells nothing about
 * which key, or how much of one, matched.
 */
public final class ApiKeys {
  private final List<ApiKey> keys;

  private ApiKeys(List<ApiKey> keys) {
    this.keys = List.copyOf(keys);
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < this.keys.size(); i++) {
      ApiKey k = this.keys.get(i);
      if (!ids.add(k.id())) {
        throw new IllegalArgumentException("two API keys share the id '" + k.id() + "'");
      }
      // one secret with two entries would act as whichever comes first, with its scope and right
      for (int j = 0; j < i; j++) {
        if (MessageDigest.isEqual(this.keys.get(j).sha256(), k.sha256())) {
          throw new IllegalArgumentException("API keys '" + this.keys.get(j).id() + "' and '" + k.id()
              + "' have the same secret; give each key its own secret");
        }
      }
    }
  }

  /** No keys: the server is open (loopback only). */
  public static ApiKeys none() {
    return new ApiKeys(List.of());
  }

  public static ApiKeys of(List<ApiKey> keys) {
    return new ApiKeys(keys);
  }

  public boolean isEmpty() {
    return keys.isEmpty();
  }

  public List<ApiKey> keys() {
    return keys;
  }

  /** The key whose secret is {@code presented}, if any. */
  public Optional<ApiKey> authenticate(String presented) {
    if (presented == null || presented.isEmpty()) {
      return Optional.empty();
    }
    byte[] hash = sha256(presented);
    ApiKey found = null;
    for (ApiKey k : keys) {
      if (MessageDigest.isEqual(k.sha256(), hash) && found == null) {
        found = k;
      }
    }
    return Optional.ofNullable(found);
  }

  /** SHA-256 of a secret's UTF-8 bytes. */
  public static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

  /** Lower-case hex SHA-256 of a secret, the form a key file stores. */
  public static String sha256Hex(String secret) {
    return java.util.HexFormat.of().formatHex(sha256(secret));
  }

  @Override
  public String toString() {
    return "ApiKeys" + keys;
  }
}
