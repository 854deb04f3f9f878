package dev.lychee.api;

import java.util.Locale;

/**
 * The planner's question types. They are not benchmark categories: they select retrieval
 * strategies, candidate budgets and route constraints.
 */
public enum QuestionType {
  /** An ordinary who/what/where/why/how factual question. */
  SINGLE,
  /** A count, list, set, total or "all matching items". */
  AGGREGATE,
  /** The answer needs a date, an order, a duration, a recurrence or a relative-time conversion. */
  TEMPORAL,
  /** Compares two or more non-time attributes. */
  COMPARISON,
  /** Asks for advice or a recommendation. */
  PERSONALIZED_ADVICE,
  /** Asks what the assistant said before. */
  PRIOR_ASSISTANT_RESPONSE,
  /** Anything else. */
  OTHER;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses leniently; unknown, blank or null names become {@link #SINGLE}. */
  public static QuestionType parseOrSingle(String name) {
    if (name == null) {
      return SINGLE;
    }
    String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
    for (QuestionType t : values()) {
      if (t.name().equals(n)) {
        return t;
      }
    }
    return SINGLE;
  }
}
