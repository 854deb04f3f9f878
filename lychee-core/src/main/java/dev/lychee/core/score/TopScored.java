package dev.lychee.core.score;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The {@code k} best of a run of scored ids, kept in a heap of {@code k} while they are offered,
 * so that a scan over many hits never sorts them all. Best means a higher score, then the smaller
 * id, so ties come out in the same order on every run.
 */
public final class TopScored {
  /** Higher score first, then id: the order every search result is returned in. */
  public static final Comparator<ScoredId> BEST_FIRST =
      Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id);

  private final int k;
  // a min-heap whose head is the worst hit kept
  private final PriorityQueue<ScoredId> heap;

  /** @param k how many hits to keep, at least 1 */
  public TopScored(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
    this.k = k;
    this.heap = new PriorityQueue<>(BEST_FIRST.reversed());
  }

  /** Keeps {@code hit} if it is among the {@code k} best offered so far. */
  public void offer(ScoredId hit) {
    if (heap.size() < k) {
      heap.add(hit);
    } else if (BEST_FIRST.compare(hit, heap.peek()) < 0) {
      heap.poll();
      heap.add(hit);
    }
  }

  /** The hits kept, best first. */
  public List<ScoredId> best() {
    List<ScoredId> out = new ArrayList<>(heap);
    out.sort(BEST_FIRST);
    return out;
  }
}
