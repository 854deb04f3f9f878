package dev.lychee.core.encode;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** Hand-written segments for encoder tests. */
final class Segments {
  static final String NS = "ns";
  static final String SESSION = "session_1";
  /** Monday 8 May 2023, 13:56. */
  static final LocalDateTime MAY8 = LocalDateTime.of(2023, 5, 8, 13, 56);

  private Segments() {}

  /** Turns alternating "speaker|text" pairs starting at absolute index {@code first}. */
  static Segment of(int first, LocalDateTime time, String... speakerAndText) {
    List<RawTurn> turns = new ArrayList<>();
    int i = first;
    for (String st : speakerAndText) {
      int bar = st.indexOf('|');
      String speaker = st.substring(0, bar);
      Role role = speaker.equals("assistant") ? Role.ASSISTANT : Role.USER;
      turns.add(new RawTurn(NS, TurnRef.of(SESSION, i++), role,
          speaker.equals("assistant") || speaker.equals("user") ? null : speaker, st.substring(bar + 1), time));
    }
    return new Segment(NS, SESSION, turns, turns.size(), 50, CloseReason.SEMANTIC_BOUNDARY, 1.5, 0.6);
  }
}
