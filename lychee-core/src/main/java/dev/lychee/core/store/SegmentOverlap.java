package dev.lychee.core.store;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The rule of {@link dev.lychee.api.spi.SegmentLog#putSegment}, decided once for every backend: a
 * segment may be stored only when no stored segment of its session holds one of its turn indices.
 * The backend reads the stored segments of the session whose first-to-last range meets the
 * candidate's ({@link #meets}), inside the transaction or lock of its write, and asks
 * {@link #sharesTurn}.
 */
public final class SegmentOverlap {
  private SegmentOverlap() {}

  /** Whether two segments are of one session and their first-to-last ranges meet (a cheap pre-test). */
  public static boolean meets(Segment a, Segment b) {
    return a.session().equals(b.session()) && a.firstIndex() <= b.lastIndex() && b.firstIndex() <= a.lastIndex();
  }

  /**
   * Whether a stored segment holds one of {@code candidate}'s turn indices ({@code stored} may
   * hold segments of other sessions or ranges that do not meet; they are ignored).
   */
  public static boolean sharesTurn(Segment candidate, Collection<Segment> stored) {
    Set<Integer> mine = null;
    for (Segment s : stored) {
      if (!meets(candidate, s)) {
        continue;
      }
      if (mine == null) {
        mine = new HashSet<>();
        for (RawTurn t : candidate.turns()) {
          mine.add(t.index());
        }
      }
      for (RawTurn t : s.turns()) {
        if (mine.contains(t.index())) {
          return true;
        }
      }
    }
    return false;
  }
}
