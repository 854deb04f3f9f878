package dev.lychee.core.ingest;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Checks caller turns and turns them into {@link RawTurn}s: blank or oversized texts, indices above
 * {@link #MAX_INDEX} and dates outside years 1-9999 are rejected with the offending position,
 * missing indices are assigned after the session's last one, and each turn gets its own time or
 * else the session date.
 */
final class TurnAdmission {
  /**
   * The highest turn index a session may hold. Far above any conversation, and far enough below
   * {@code Integer.MAX_VALUE} that "one past the last index" never overflows.
   */
  static final int MAX_INDEX = 1 << 30;
  /** Dates outside these years break date arithmetic downstream (ranges, day and month keys). */
  static final int MIN_YEAR = 1;
  static final int MAX_YEAR = 9999;

  private final int maxTurnChars;

  TurnAdmission(int maxTurnChars) {
    this.maxTurnChars = maxTurnChars;
  }

  /**
   * @param nextIndex the first free index of the session
   * @throws IllegalArgumentException naming the first bad turn
   */
  List<RawTurn> admit(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns, int nextIndex) {
    Objects.requireNonNull(turns, "turns");
    checkDate(sessionDate, "the session date of session '" + session + "'");
    List<RawTurn> out = new ArrayList<>(turns.size());
    Set<Integer> seen = new HashSet<>();
    long next = nextIndex;
    for (int i = 0; i < turns.size(); i++) {
      Turn t = turns.get(i);
      if (t == null) {
        throw new IllegalArgumentException("turn " + i + " is null");
      }
      if (t.text().isBlank()) {
        throw new IllegalArgumentException("turn " + i + " of session '" + session + "' has blank text");
      }
      if (t.text().length() > maxTurnChars) {
        throw new IllegalArgumentException("turn " + i + " of session '" + session + "' has "
            + t.text().length() + " characters; the limit is " + maxTurnChars
            + " (IngestConfig.maxTurnChars). Split the text into several turns.");
      }
      if (t.index() > MAX_INDEX) {
        throw new IllegalArgumentException("turn " + i + " of session '" + session + "' has index " + t.index()
            + "; the highest allowed turn index is " + MAX_INDEX);
      }
      long index = t.index() >= 0 ? t.index() : next;
      if (index > MAX_INDEX) {
        throw new IllegalArgumentException("session '" + session + "' has no free turn index left: the next one would be "
            + index + ", above the maximum " + MAX_INDEX + "; start a new session");
      }
      if (!seen.add((int) index)) {
        throw new IllegalArgumentException("turn index " + index + " appears twice in one append");
      }
      next = Math.max(next, index + 1);
      checkDate(t.time(), "the time of turn " + i + " of session '" + session + "'");
      LocalDateTime time = t.time() != null ? t.time() : sessionDate;
      out.add(new RawTurn(namespace, new TurnRef(session, (int) index), t.role(), t.speaker(), t.text(), time));
    }
    out.sort((a, b) -> Integer.compare(a.index(), b.index()));
    return out;
  }

  private static void checkDate(LocalDateTime date, String what) {
    if (date != null && (date.getYear() < MIN_YEAR || date.getYear() > MAX_YEAR)) {
      throw new IllegalArgumentException(what + " is " + date + "; dates must lie in the years "
          + MIN_YEAR + " to " + MAX_YEAR);
    }
  }

  /**
   * The turns whose explicit index is already stored with other content: re-sending a turn exactly
   * as stored is an idempotent no-op, a different turn under a stored index is a conflict.
   */
  static List<TurnRef> conflicts(List<RawTurn> admitted, List<RawTurn> storedAtThoseRefs) {
    java.util.Map<TurnRef, RawTurn> stored = new java.util.HashMap<>();
    storedAtThoseRefs.forEach(t -> stored.put(t.ref(), t));
    List<TurnRef> out = new ArrayList<>();
    for (RawTurn a : admitted) {
      RawTurn s = stored.get(a.ref());
      if (s != null && !(s.text().equals(a.text()) && s.role() == a.role() && Objects.equals(s.speaker(), a.speaker()))) {
        out.add(a.ref());
      }
    }
    return out;
  }
}
