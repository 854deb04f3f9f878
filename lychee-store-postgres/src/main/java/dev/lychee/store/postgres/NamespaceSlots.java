package dev.lychee.store.postgres;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The per-namespace slots of one of an instance's in-memory copies ({@link LocalRows},
 * {@link TurnTextIndex}), at most {@code maxNamespaces} of them: taking the slot of a namespace not
 * held when the bound is reached drops the slot read least recently (docs/defaults.md §3.3).
 *
 * <p>Why: a copy used to live as long as the instance, so a service reading one namespace per user
 * kept every user's rows. A dropped slot needs no invalidation: the next read of its namespace gets
 * a new, empty slot and loads it afresh, exactly as a first read does. A thread still using a
 * dropped slot finishes on it; the slot is only unlinked.
 *
 * @param <S> the slot: a namespace's copy and its lock
 */
final class NamespaceSlots<S> {
  private static final class Held<S> {
    final S slot;
    /** The tick of the slot's last use; a counter, not a clock, so clock steps cannot reorder reads. */
    volatile long lastRead;

    Held(S slot) {
      this.slot = slot;
    }
  }

  private final int maxNamespaces;
  private final Supplier<S> empty;
  private final Map<String, Held<S>> held = new ConcurrentHashMap<>();
  private final AtomicLong ticks = new AtomicLong();
  /** Serialises evictions, so two threads adding namespaces cannot both drop the same slot. */
  private final Object evicting = new Object();
  private final AtomicLong evictions = new AtomicLong();

  NamespaceSlots(int maxNamespaces, Supplier<S> empty) {
    if (maxNamespaces < 1) {
      throw new IllegalArgumentException("maxNamespaces must be >= 1: " + maxNamespaces);
    }
    this.maxNamespaces = maxNamespaces;
    this.empty = empty;
  }

  /** The namespace's slot (a new, empty one when not held), marked as read now. */
  S get(String namespace) {
    Held<S> h = held.computeIfAbsent(namespace, key -> new Held<>(empty.get()));
    h.lastRead = ticks.incrementAndGet();
    if (held.size() > maxNamespaces) {
      evictBeyondBound(h);
    }
    return h.slot;
  }

  /** Drops the least recently read slots until at most {@code maxNamespaces} are held, never {@code keep}. */
  private void evictBeyondBound(Held<S> keep) {
    synchronized (evicting) {
      while (held.size() > maxNamespaces) {
        Map.Entry<String, Held<S>> oldest = null;
        for (Map.Entry<String, Held<S>> e : held.entrySet()) {
          if (e.getValue() != keep && (oldest == null || e.getValue().lastRead < oldest.getValue().lastRead)) {
            oldest = e;
          }
        }
        if (oldest == null) {
          return;
        }
        if (held.remove(oldest.getKey(), oldest.getValue())) {
          evictions.incrementAndGet();
        }
      }
    }
  }

  /** Drops the namespace's slot, if held. */
  void remove(String namespace) {
    held.remove(namespace);
  }

  /** Namespaces held now (at most {@code maxNamespaces}). */
  int size() {
    return held.size();
  }

  /** Slots dropped for the bound so far. */
  long evictions() {
    return evictions.get();
  }
}
