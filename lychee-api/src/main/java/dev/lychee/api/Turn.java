package dev.lychee.api;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One turn as a caller hands it to {@code append}: who said what.
 *
 * @param role the producer of the turn
 * @param speaker the speaker's name; nullable when unknown (then the role stands in for it)
 * @param text what was said; must not be blank (the store rejects blank turns with a clear error)
 *     and must be well-formed UTF-16 (a lone surrogate is rejected, see {@link Checks})
 * @param index the turn's absolute position in its session, or {@code -1} to let the store assign
 *     the next free position. Giving explicit indices makes re-sending the same turns idempotent: a
 *     turn whose index is already stored is skipped.
 * @param time when the turn was said; nullable, in which case the session date applies
 */
public record Turn(Role role, String speaker, String text, int index, LocalDateTime time) {

  public Turn {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(text, "text");
    Checks.wellFormed(text, "turn text");
    Checks.wellFormed(speaker, "speaker");
    if (index < -1) {
      throw new IllegalArgumentException("index must be >= 0, or -1 for 'assign the next one': " + index);
    }
    if (speaker != null && speaker.isBlank()) {
      speaker = null;
    }
  }

  /** A user turn by a named speaker, index assigned by the store. */
  public static Turn user(String speaker, String text) {
    return new Turn(Role.USER, speaker, text, -1, null);
  }

  /** An assistant turn, index assigned by the store. */
  public static Turn assistant(String text) {
    return new Turn(Role.ASSISTANT, null, text, -1, null);
  }

  /** This turn with an explicit absolute index. */
  public Turn withIndex(int newIndex) {
    return new Turn(role, speaker, text, newIndex, time);
  }

  /** This turn with an explicit time. */
  public Turn withTime(LocalDateTime newTime) {
    return new Turn(role, speaker, text, index, newTime);
  }
}
