package dev.lychee.store.postgres;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The turns' full-text search of one store instance, answered from {@link TextPostings} kept per
 * namespace and brought up to date the way {@link PostgresVectorIndex} keeps its vectors
 * (docs/defaults.md §3.3): a search reads the namespace's turn head (one indexed row, the only
 * round trip while nothing changed); when it moved, the turns numbered since are read in the same
 * snapshot as the head and added; after a deletion (a new epoch) the namespace is read afresh.
 *
 * <p>Staleness is the store's (architecture §6): a search sees every turn committed, by any
 * instance, before it started, since its head is read after it started and a snapshot showing the
 * head at N shows every turn numbered up to N (migration 3).
 *
 * <p>With local rows on ({@link PostgresStoreConfig#localRows()}) the copy also keeps every turn
 * decoded, by session and index, and answers the reads of turns by ref and of windows after the
 * same head read (docs/defaults.md §3.3). Why: after round fifteen these were the largest read by
 * id of a recall (about 29 KB per x20 recall, docs/measurements.md §6), and turns, never changed
 * once stored, are the easiest rows to keep: within an epoch the copy only grows.
 *
 * <p>At most {@code maxNamespaces} namespaces are held ({@link NamespaceSlots}), as for
 * {@link LocalRows}.
 */
final class TurnTextIndex {
  /** One namespace's copy and the lock that guards it. */
  private static final class Slot {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    TextPostings current;
    /** The turn head {@code current} holds every turn of: its epoch and the last turn number. */
    long epoch;
    long seq;
    /** The turns by session and index, as of {@code current}'s head; null when rows are not kept. */
    Map<String, NavigableMap<Integer, RawTurn>> rows;
  }

  private final PostgresDatabase db;
  private final boolean keepRows;
  private final NamespaceSlots<Slot> slots;
  private final AtomicLong fullLoads = new AtomicLong();
  private final AtomicLong replays = new AtomicLong();

  TurnTextIndex(PostgresDatabase db, boolean keepRows, int maxNamespaces) {
    this.db = db;
    this.keepRows = keepRows;
    this.slots = new NamespaceSlots<>(maxNamespaces, Slot::new);
  }

  /** Whether this copy keeps the turns themselves and so answers {@link #turns} and {@link #window}. */
  boolean keepsRows() {
    return keepRows;
  }

  /**
   * The top {@code k} turns for each query, as {@link TurnTable#searchAll} would answer it; every
   * query must be null (no hits) or of {@linkplain TextPostings#plain plain} terms only.
   */
  List<List<ScoredId>> searchAll(String namespace, List<TextQuery> queries, int k) {
    List<List<ScoredId>> out = new ArrayList<>(queries.size());
    read(namespace, (local, rows) -> {
      for (TextQuery q : queries) {
        out.add(local == null || q == null ? List.of() : local.search(q.terms(), k));
      }
    });
    return out;
  }

  /** The stored turns of {@code refs} (distinct), in their order; only when {@link #keepsRows()}. */
  List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    List<RawTurn> out = new ArrayList<>(refs.size());
    read(namespace, (local, rows) -> {
      if (rows == null) {
        return;
      }
      for (TurnRef ref : refs) {
        NavigableMap<Integer, RawTurn> session = rows.get(ref.session());
        RawTurn t = session == null ? null : session.get(ref.index());
        if (t != null) {
          out.add(t);
        }
      }
    });
    return out;
  }

  /** The stored turns of a session from {@code from} to {@code to}, by index; only when {@link #keepsRows()}. */
  List<RawTurn> window(String namespace, String session, int from, int to) {
    List<RawTurn> out = new ArrayList<>();
    read(namespace, (local, rows) -> {
      NavigableMap<Integer, RawTurn> turns = rows == null ? null : rows.get(session);
      if (turns != null) {
        out.addAll(turns.subMap(from, true, to, true).values());
      }
    });
    return out;
  }

  /** What a call does with the copy, under its read lock: postings and rows, null when empty. */
  @FunctionalInterface
  private interface Reader {
    void read(TextPostings postings, Map<String, NavigableMap<Integer, RawTurn>> rows);
  }

  /**
   * Runs {@code reader} on the namespace's copy once it is at the head read now, or at the head of
   * the {@link HeadPoint} the calling thread is inside.
   */
  private void read(String namespace, Reader reader) {
    HeadPoint.Heads at = HeadPoint.entered(db, namespace);
    TurnTable.Head head = at != null ? at.turns() : db.read(h -> TurnTable.head(h, namespace));
    Slot slot = slots.get(namespace);
    slot.lock.writeLock().lock();
    try {
      if (head == null) {
        slot.current = null;
        slot.rows = null;
      } else if (slot.current == null || slot.epoch != head.epoch() || slot.seq < head.seq()) {
        refresh(namespace, slot);
      }
      // downgrade: searches of one namespace run in parallel, refreshes one at a time
      slot.lock.readLock().lock();
    } finally {
      slot.lock.writeLock().unlock();
    }
    try {
      reader.read(slot.current, slot.rows);
    } finally {
      slot.lock.readLock().unlock();
    }
  }

  /** What a refresh read in one snapshot: the head and the turns to add (all, or those since). */
  private record Read(TurnTable.Head head, boolean full, List<Map.Entry<String, String>> turns, List<RawTurn> rows) {}

  /**
   * Brings the slot to the head, read again in the snapshot of the turns it reads. The rows are
   * read before the copy changes, so a snapshot retried after a transient failure adds nothing twice.
   */
  private void refresh(String namespace, Slot slot) {
    TextPostings have = slot.current;
    long haveEpoch = slot.epoch;
    long haveSeq = slot.seq;
    Read read = db.readSnapshot(h -> {
      TurnTable.Head head = TurnTable.head(h, namespace);
      if (head == null) {
        return null;
      }
      boolean full = have == null || haveEpoch != head.epoch();
      List<Map.Entry<String, String>> texts = new ArrayList<>();
      List<RawTurn> rows = new ArrayList<>();
      if (full || haveSeq < head.seq()) {
        // turns are never changed once stored: within an epoch, a change is a new turn
        long after = full ? -1 : haveSeq;
        if (keepRows) {
          TurnTable.rows(h, namespace, after, head.seq(), (hit, tsv, turn) -> {
            texts.add(Map.entry(hit, tsv));
            rows.add(turn);
          });
        } else {
          TurnTable.texts(h, namespace, after, head.seq(), (hit, tsv) -> texts.add(Map.entry(hit, tsv)));
        }
      }
      return new Read(head, full, texts, rows);
    });
    if (read == null) {
      slot.current = null;
      slot.rows = null;
      return;
    }
    TextPostings target = read.full() ? new TextPostings() : have;
    read.turns().forEach(e -> target.add(e.getKey(), e.getValue()));
    slot.epoch = read.head().epoch();
    slot.seq = read.full() ? read.head().seq() : Math.max(haveSeq, read.head().seq());
    if (keepRows) {
      Map<String, NavigableMap<Integer, RawTurn>> rows = read.full() || slot.rows == null ? new HashMap<>() : slot.rows;
      for (RawTurn t : read.rows()) {
        rows.computeIfAbsent(t.session(), s -> new TreeMap<>()).put(t.index(), t);
      }
      slot.rows = rows;
    }
    (read.full() ? fullLoads : replays).incrementAndGet();
    slot.current = target;
  }

  /** Drops what this instance holds of a namespace (its other instances see the new epoch). */
  void forget(String namespace) {
    slots.remove(namespace);
  }

  /** Namespaces held now, and how many were dropped for the bound. */
  long[] held() {
    return new long[] {slots.size(), slots.evictions()};
  }

  long fullLoads() {
    return fullLoads.get();
  }

  long replays() {
    return replays.get();
  }
}
