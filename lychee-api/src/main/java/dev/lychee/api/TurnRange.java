package dev.lychee.api;

/**
 * An inclusive range of turn indices within one session.
 *
 * @param session the session
 * @param first first absolute turn index
 * @param last last absolute turn index, {@code >= first}
 */
public record TurnRange(String session, int first, int last) {
  public TurnRange {
    Checks.nonBlank(session, "session");
    if (first < 0 || last < first) {
      throw new IllegalArgumentException("bad turn range " + first + ".." + last);
    }
  }

  public boolean contains(TurnRef ref) {
    return ref.session().equals(session) && ref.index() >= first && ref.index() <= last;
  }
}
