package dev.lychee.core.testing;

import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import java.util.List;

/**
 * A conversation for the adapters' token-budget tests: many long turns on one topic, so that ten
 * items take far more than the smallest budget.
 */
public final class LongTalk {
  /** How many sessions {@link #tell} writes, each one exchange. */
  public static final int SESSIONS = 12;
  /** The reply to every trip. */
  public static final String REPLY = "That sounds like a lovely trip with your sister.";

  private LongTalk() {}

  /** The long user turn of session {@code i}. */
  public static String trip(int i) {
    return "On trip " + i + " my sister Zoe and I walked along the river in Lisbon, ate grilled "
        + "sardines at a small place near the castle, took the old yellow tram up the hill and "
        + "talked for hours about her new job at the museum and the flat she is renting there.";
  }

  /** {@link #SESSIONS} sessions, each a long user turn about the same trip and a short reply. */
  public static void tell(Lychee lychee, String namespace) {
    for (int i = 0; i < SESSIONS; i++) {
      lychee.append(namespace, "s" + i, List.of(Turn.user("Ann", trip(i)), Turn.assistant(REPLY)));
    }
  }
}
