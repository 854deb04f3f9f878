package dev.lychee.spring.ai;

import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import java.util.List;

/** Test conversation for the token-budget tests: many long turns on one topic, so ten items take far more than the smallest budget. */
public final class LongTalk {
  private LongTalk() {}

  /** Twelve sessions, each a long user turn about the same trip and a short reply. */
  public static void tell(Lychee lychee, String namespace) {
    for (int i = 0; i < 12; i++) {
      lychee.append(namespace, "s" + i, List.of(
          Turn.user("Ann", "On trip " + i + " my sister Zoe and I walked along the river in Lisbon, ate grilled "
              + "sardines at a small place near the castle, took the old yellow tram up the hill and "
              + "talked for hours about her new job at the museum and the flat she is renting there."),
          Turn.assistant("That sounds like a lovely trip with your sister.")));
    }
  }
}
