package dev.lychee.store.postgres;

import dev.lychee.api.ScoredId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The turns' full-text search of one store instance, answered from {@link TurnPostings} kept per
 * namespace and brought up to date the way {@link PostgresVectorIndex} keeps its vectors
 * (docs/defaults.md §3.3): a search reads the namespace's turn head (one indexed row, the only
 * round trip while nothing changed); when it moved, the turns numbered since are read in the same
 * snapshot as the head and added; after a deletion (a new epoch) the namespace is read afresh.
 *
 * <p>Staleness is the store's (architecture §6): a search sees every turn committed, by any
 * instance, before it started, since its head is read after it started and a snapshot showing the
 * head at N shows every turn numbered up to N (migration 3).
 */
final class TurnTextIndex {
  /** One namespace's copy and the lock that guards it. */
  private static final class Slot {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    TurnPostings current;
  }

  private final PostgresDatabase db;
  private final Map<String, Slot> slots = new ConcurrentHashMap<>();
  private final AtomicLong fullLoads = new AtomicLong();
  private final AtomicLong replays = new AtomicLong();

  TurnTextIndex(PostgresDatabase db) {
    this.db = db;
  }

  /**
   * The top {@code k} turns for each query, as {@link TurnTable#searchAll} would answer it; every
   * query must be null (no hits) or of {@linkplain TurnPostings#plain plain} terms only.
   */
  List<List<ScoredId>> searchAll(String namespace, List<TextQuery> queries, int k) {
    TurnTable.Head head = db.read(h -> TurnTable.head(h, namespace));
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    Slot slot = slots.computeIfAbsent(namespace, key -> new Slot());
    slot.lock.writeLock().lock();
    try {
      TurnPostings have = slot.current;
      if (head == null) {
        slot.current = null;
      } else if (have == null || have.epoch() != head.epoch() || have.seq() < head.seq()) {
        refresh(namespace, slot);
      }
      // downgrade: searches of one namespace run in parallel, refreshes one at a time
      slot.lock.readLock().lock();
    } finally {
      slot.lock.writeLock().unlock();
    }
    try {
      TurnPostings local = slot.current;
      for (TextQuery q : queries) {
        out.add(local == null || q == null ? List.of() : local.search(q.terms(), k));
      }
      return out;
    } finally {
      slot.lock.readLock().unlock();
    }
  }

  /** What a refresh read in one snapshot: the head and the turns to add (all, or those since). */
  private record Read(TurnTable.Head head, boolean full, List<Map.Entry<String, String>> turns) {}

  /**
   * Brings the slot to the head, read again in the snapshot of the turns it reads. The rows are
   * read before the copy changes, so a snapshot retried after a transient failure adds nothing twice.
   */
  private void refresh(String namespace, Slot slot) {
    TurnPostings have = slot.current;
    Read read = db.readSnapshot(h -> {
      TurnTable.Head head = TurnTable.head(h, namespace);
      if (head == null) {
        return null;
      }
      boolean full = have == null || have.epoch() != head.epoch();
      List<Map.Entry<String, String>> rows = new ArrayList<>();
      if (full || have.seq() < head.seq()) {
        // turns are never changed once stored: within an epoch, a change is a new turn
        TurnTable.texts(h, namespace, full ? -1 : have.seq(), head.seq(), (hit, tsv) -> rows.add(Map.entry(hit, tsv)));
      }
      return new Read(head, full, rows);
    });
    if (read == null) {
      slot.current = null;
      return;
    }
    TurnPostings target = read.full() ? new TurnPostings(read.head().epoch(), read.head().seq()) : have;
    read.turns().forEach(e -> target.add(e.getKey(), e.getValue()));
    target.advanceTo(read.head().seq());
    (read.full() ? fullLoads : replays).incrementAndGet();
    slot.current = target;
  }

  /** Drops what this instance holds of a namespace (its other instances see the new epoch). */
  void forget(String namespace) {
    slots.remove(namespace);
  }

  long fullLoads() {
    return fullLoads.get();
  }

  long replays() {
    return replays.get();
  }
}
