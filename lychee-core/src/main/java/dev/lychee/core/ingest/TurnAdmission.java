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
 * Checks caller turns and turns them into {@link RawTurn}s: blank or oversized texts are rejected
 * with the offending position, missing indices are assigned after the session's last one, and
 * each turn gets its own time or else the session date.
 */
final class TurnAdmission {
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
    List<RawTurn> out = new ArrayList<>(turns.size());
    Set<Integer> seen = new HashSet<>();
    int next = nextIndex;
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
            + " (LycheeConfig.maxTurnChars). Split the text into several turns.");
      }
      int index = t.index() >= 0 ? t.index() : next;
      if (!seen.add(index)) {
        throw new IllegalArgumentException("turn index " + index + " appears twice in one append");
      }
      next = Math.max(next, index + 1);
      LocalDateTime time = t.time() != null ? t.time() : sessionDate;
      out.add(new RawTurn(namespace, new TurnRef(session, index), t.role(), t.speaker(), t.text(), time));
    }
    out.sort((a, b) -> Integer.compare(a.index(), b.index()));
    return out;
  }
}
