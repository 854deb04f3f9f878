package dev.lychee.api;

import java.util.Locale;

/**
 * A constraint a route's evidence must satisfy.
 *
 * @param kind one of time, entity, status, relation, attribute, other
 * @param value the constraint's value, not blank
 */
public record Constraint(Kind kind, String value) {

  /** Constraint kinds. */
  public enum Kind {
    TIME, ENTITY, STATUS, RELATION, ATTRIBUTE, OTHER;

    /** Parses leniently; unknown names become OTHER. */
    public static Kind parse(String name) {
      if (name == null) {
        return OTHER;
      }
      try {
        return Kind.valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        return OTHER;
      }
    }
  }

  public Constraint {
    java.util.Objects.requireNonNull(kind, "kind");
    Checks.nonBlank(value, "constraint value");
  }
}
