package dev.lychee.server.api;

import java.util.List;

/**
 * The body of {@code POST .../sessions/{session}/turns}.
 *
 * @param turns the turns, at least one
 * @param sessionDate the session's date, anchoring relative dates; optional
 * @param flush close the session's open segment after these turns (end of session); default false
 */
public record TurnsRequest(List<TurnInput> turns, String sessionDate, Boolean flush) {
  public TurnsRequest {
    if (turns == null || turns.isEmpty()) {
      throw new IllegalArgumentException("'turns' must hold at least one turn");
    }
    if (turns.stream().anyMatch(t -> t == null)) {
      throw new IllegalArgumentException("'turns' must not hold null");
    }
    turns = List.copyOf(turns);
    WireTimes.parse("session_date", sessionDate);
  }

  public boolean flushRequested() {
    return Boolean.TRUE.equals(flush);
  }
}
