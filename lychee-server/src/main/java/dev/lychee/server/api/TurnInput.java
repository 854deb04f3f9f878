package dev.lychee.server.api;

import dev.lychee.api.Role;
import dev.lychee.api.Turn;

/**
 * One turn in a request body.
 *
 * @param role user, assistant or system (default user)
 * @param speaker the speaker's name; optional
 * @param text what was said, not blank
 * @param index the turn's absolute index in its session; optional (then appended after the last)
 * @param time when it was said; optional
 */
public record TurnInput(String role, String speaker, String text, Integer index, String time) {
  public TurnInput {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("every turn needs a non-blank 'text'");
    }
    if (index != null && index < 0) {
      throw new IllegalArgumentException("turn 'index' must be >= 0: " + index);
    }
    if (role != null) {
      Role.parse(role);
    }
    WireTimes.parse("turn 'time'", time);
  }

  /** The turn as the library takes it. */
  public Turn toTurn() {
    Role r = role == null ? Role.USER : Role.parse(role);
    return new Turn(r, speaker, text, index == null ? -1 : index, WireTimes.parse("time", time));
  }
}
