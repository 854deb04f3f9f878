package dev.lychee.api;

import java.util.Locale;

/** Who produced a turn of a conversation. */
public enum Role {
  USER,
  ASSISTANT,
  SYSTEM;

  /** Lower-case wire name ({@code "user"}, {@code "assistant"}, {@code "system"}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a role name case-insensitively.
   *
   * @throws IllegalArgumentException if the name is not a known role
   */
  public static Role parse(String name) {
    if (name == null) {
      throw new IllegalArgumentException("role must not be null");
    }
    try {
      return Role.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown role '" + name + "' (expected user, assistant or system)");
    }
  }
}
