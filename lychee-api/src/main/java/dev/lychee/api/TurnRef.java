package dev.lychee.api;

import java.util.Objects;

/**
 * Points at one stored raw turn inside a namespace: the session and the turn's absolute index.
 * Ordered by session, then index.
 */
public record TurnRef(String session, int index) implements Comparable<TurnRef> {

  public TurnRef {
    Checks.nonBlank(session, "session");
    if (index < 0) {
      throw new IllegalArgumentException("turn index must be >= 0: " + index);
    }
  }

  /** The stable id of the raw turn, {@code episode:<session>:<index>}. */
  public String id() {
    return "episode:" + session + ":" + index;
  }

  @Override
  public int compareTo(TurnRef o) {
    int c = session.compareTo(o.session);
    return c != 0 ? c : Integer.compare(index, o.index);
  }

  @Override
  public String toString() {
    return session + ":" + index;
  }

  /** Shortcut for {@code new TurnRef(session, index)}. */
  public static TurnRef of(String session, int index) {
    return new TurnRef(Objects.requireNonNull(session, "session"), index);
  }
}
