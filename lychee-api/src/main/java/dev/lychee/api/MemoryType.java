package dev.lychee.api;

import java.util.Locale;

/** The seven memory record types of the LycheeMemory design. */
public enum MemoryType {
  /** A stable attribute, relationship or state. */
  FACT,
  /** A like, dislike, habit or recurring choice. */
  PREFERENCE,
  /** A dated, one-off occurrence. */
  EVENT,
  /** A limit, policy or restriction. */
  CONSTRAINT,
  /** Reusable steps or a workflow. */
  PROCEDURE,
  /** A mistake, pitfall or lesson learned. */
  FAILURE_PATTERN,
  /** What a tool can or cannot do. */
  TOOL_AFFORDANCE;

  /** The snake-case wire name, for example {@code failure_pattern}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a wire name leniently; anything unknown, blank or null becomes {@link #FACT}. */
  public static MemoryType parseOrFact(String name) {
    if (name == null) {
      return FACT;
    }
    String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
    for (MemoryType t : values()) {
      if (t.name().equals(n)) {
        return t;
      }
    }
    return FACT;
  }
}
