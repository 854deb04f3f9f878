package dev.lychee.langchain4j.memory;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Turn;
import java.util.List;

/**
 * Finds which turns of a chat window Lychee already holds. A window is the last stretch of the
 * conversation, so its first turns may be the session's last stored ones; the longest such overlap
 * (same role and text, in order) is taken as already stored, and everything after it is new.
 *
 * <p>Taking the longest overlap makes a repeated {@code updateMessages} with the same window a
 * no-op. Its one blind spot: a window that shifted while every turn in it repeats the stored tail
 * exactly (say, "ok" / "ok" over and over) reads as a re-send.
 */
final class TailAlignment {
  private TailAlignment() {}

  /** How many leading turns of {@code window} match the end of {@code storedTail}. */
  static int overlap(List<RawTurn> storedTail, List<Turn> window) {
    for (int k = Math.min(storedTail.size(), window.size()); k > 0; k--) {
      if (matches(storedTail.subList(storedTail.size() - k, storedTail.size()), window.subList(0, k))) {
        return k;
      }
    }
    return 0;
  }

  private static boolean matches(List<RawTurn> stored, List<Turn> window) {
    for (int i = 0; i < stored.size(); i++) {
      RawTurn s = stored.get(i);
      Turn w = window.get(i);
      if (s.role() != w.role() || !s.text().equals(w.text())) {
        return false;
      }
    }
    return true;
  }
}
