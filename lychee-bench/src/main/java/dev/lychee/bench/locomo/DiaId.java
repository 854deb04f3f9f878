package dev.lychee.bench.locomo;

import dev.lychee.api.TurnRef;

/**
 * A LoCoMo dialogue id {@code D<session>:<turn>}, both numbers 1-based.
 *
 * <p>When a conversation is ingested into Lychee each LoCoMo session becomes the Lychee session
 * {@code "D<session>"} and each turn keeps the absolute index {@code turn - 1}, so a {@link TurnRef}
 * maps back to a dia id without any look-up table.
 */
public record DiaId(int session, int turn) implements Comparable<DiaId> {
  public DiaId {
    if (session < 1 || turn < 1) {
      throw new IllegalArgumentException("dia ids are 1-based: D" + session + ":" + turn);
    }
  }

  /** The Lychee session id used for LoCoMo session {@code n}. */
  public static String sessionId(int session) {
    return "D" + session;
  }

  /** The Lychee turn reference of this dia id. */
  public TurnRef toTurnRef() {
    return TurnRef.of(sessionId(session), turn - 1);
  }

  /**
   * The dia id a Lychee turn reference stands for, or {@code null} if the session is not named
   * {@code D<n>} (such a ref cannot be a LoCoMo turn).
   */
  public static DiaId fromTurnRef(TurnRef ref) {
    String s = ref.session();
    if (s.length() < 2 || s.charAt(0) != 'D') {
      return null;
    }
    try {
      return new DiaId(Integer.parseInt(s.substring(1)), ref.index() + 1);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public int compareTo(DiaId o) {
    int c = Integer.compare(session, o.session);
    return c != 0 ? c : Integer.compare(turn, o.turn);
  }

  @Override
  public String toString() {
    return "D" + session + ":" + turn;
  }
}
