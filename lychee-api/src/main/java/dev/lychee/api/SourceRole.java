package dev.lychee.api;

import java.util.Locale;

/** Whose words a record comes from. */
public enum SourceRole {
  USER,
  ASSISTANT,
  BOTH,
  /** Not stated, or a value the encoder did not recognise. */
  UNKNOWN;

  public String wireName() {
    return this == UNKNOWN ? "" : name().toLowerCase(Locale.ROOT);
  }

  /** Parses leniently: anything but user, assistant or both becomes {@link #UNKNOWN}. */
  public static SourceRole parse(String name) {
    if (name == null) {
      return UNKNOWN;
    }
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "user" -> USER;
      case "assistant" -> ASSISTANT;
      case "both" -> BOTH;
      default -> UNKNOWN;
    };
  }
}
