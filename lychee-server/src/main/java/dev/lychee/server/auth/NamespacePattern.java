package dev.lychee.server.auth;

import java.util.Objects;

/**
 * A namespace a key may reach: an exact name ({@code alice}) or a prefix ending in {@code *}
 * ({@code team-*}, or {@code *} for every namespace).
 *
 * @param text the pattern as configured
 */
public record NamespacePattern(String text) {

  public NamespacePattern {
    Objects.requireNonNull(text, "namespace pattern");
    if (text.isBlank()) {
      throw new IllegalArgumentException("namespace pattern must not be blank");
    }
    int star = text.indexOf('*');
    if (star >= 0 && star != text.length() - 1) {
      throw new IllegalArgumentException("namespace pattern '" + text + "': '*' is only allowed at the end (a prefix)");
    }
  }

  /** True for a prefix pattern. */
  public boolean isPrefix() {
    return text.endsWith("*");
  }

  /** True when {@code namespace} lies inside this pattern. */
  public boolean matches(String namespace) {
    if (namespace == null) {
      return false;
    }
    return isPrefix() ? namespace.startsWith(text.substring(0, text.length() - 1)) : text.equals(namespace);
  }
}
