package dev.lychee.store.sqlite;

import java.util.HashMap;
import java.util.Map;

/**
 * The namespaces with turns committed whose turn vectors are not written yet, so that background
 * writes (a segment's record and node vectors, its records commit) give way to them: an {@code
 * append} commits its turns, waits for their embedding and then writes their vectors, and before
 * this the background encoder's commits that started in that window held the database's one
 * write lock while the caller waited for it (round seventeen, docs/defaults.md §3.3). A background
 * write waits until no namespace has turn vectors due, at most {@code maxWait} in all, and an entry
 * lapses {@code maxWait} after its turns' commit (turns whose vectors never come, as when
 * embedding them failed or the write path embeds them elsewhere, hold nothing up for longer).
 * Thread-safe.
 */
final class TurnVectorsDue {
  private final long maxWaitNanos;
  /** Namespace to the time (System.nanoTime) its latest due entry lapses. */
  private final Map<String, Long> due = new HashMap<>();

  /** @param maxWaitMillis how long one background write waits at most; 0 turns the waiting off */
  TurnVectorsDue(long maxWaitMillis) {
    this.maxWaitNanos = maxWaitMillis * 1_000_000L;
  }

  /** Turns of the namespace were committed; their vectors are to follow. */
  synchronized void turnsCommitted(String namespace) {
    if (maxWaitNanos > 0) {
      due.put(namespace, System.nanoTime() + maxWaitNanos);
    }
  }

  /** The namespace's turn vectors were written. */
  synchronized void vectorsWritten(String namespace) {
    if (due.remove(namespace) != null && due.isEmpty()) {
      notifyAll();
    }
  }

  /** Whether some namespace has turn vectors due (lapsed entries count until the next wait drops them). */
  synchronized boolean anyDue() {
    long now = System.nanoTime();
    due.values().removeIf(lapse -> lapse - now <= 0);
    return !due.isEmpty();
  }

  /** The time (System.nanoTime) a background write that starts now stops giving way. */
  long deadline() {
    return System.nanoTime() + maxWaitNanos;
  }

  /**
   * Waits until no namespace has turn vectors due (lapsed entries dropped) or {@code deadline}
   * passed; returns whether none is due.
   */
  synchronized boolean awaitNone(long deadline) {
    if (maxWaitNanos == 0) {
      return true;
    }
    try {
      while (true) {
        long now = System.nanoTime();
        due.values().removeIf(lapse -> lapse - now <= 0);
        long left = deadline - now;
        if (due.isEmpty() || left <= 0) {
          return due.isEmpty();
        }
        long next = Math.min(left, due.values().stream().mapToLong(lapse -> lapse - now).min().orElse(left));
        wait(Math.max(1, next / 1_000_000L));
      }
    } catch (InterruptedException e) {
      // the writer is being stopped: write now, the write itself sees the interrupt if it matters
      Thread.currentThread().interrupt();
      return true;
    }
  }
}
