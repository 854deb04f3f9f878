package dev.lychee.store.postgres;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.vector.Vectors;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A {@link VectorIndex} whose vectors live in PostgreSQL beside the store's rows and are searched
 * in memory by every instance.
 *
 * <p>Each instance keeps one {@link LocalVectors} per (namespace, kind) it has searched. A search
 * first reads the index's head in the database (one indexed row); when it has moved, the instance
 * replays only the changes after the number it holds (new or replaced vectors, tombstones of
 * removed ids) in the same snapshot, and reloads in full only after a {@code forget} (new epoch),
 * when the exact copy outgrows its limit and becomes an HNSW graph, or when the server restarted
 * since the copy was read (every head carries the server's run, {@link VectorTable.Head}: a crash
 * can lose commits the copy saw and hand their numbers out again).
 *
 * <p><b>Staleness:</b> a search sees every vector write committed, by any instance, before the
 * search started, and nothing half-committed. Writes go straight to the database; no instance
 * serves a vector the database no longer holds once a search has begun after its removal.
 */
public final class PostgresVectorIndex implements VectorIndex {
  private record Key(String namespace, String kind) {}

  /** The local copy of one index and the lock that guards it. */
  private static final class Slot {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    LocalVectors current;
  }

  private final PostgresDatabase db;
  private final PostgresStoreConfig config;
  private final VectorTable table = new VectorTable();
  private final Map<Key, Slot> slots = new ConcurrentHashMap<>();
  private final AtomicLong fullLoads = new AtomicLong();
  private final AtomicLong replays = new AtomicLong();
  private final AtomicLong headReads = new AtomicLong();
  private volatile boolean closed;

  /** An index over a shared database (the pool stays open until its last user closes). */
  @Inject
  public PostgresVectorIndex(PostgresDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
    this.config = db.config();
    db.acquire();
  }

  /** Opens an index with its own pool on {@code jdbcUrl}. */
  public static PostgresVectorIndex open(String jdbcUrl, PostgresStoreConfig config) {
    return new PostgresVectorIndex(PostgresDatabase.open(jdbcUrl, config));
  }

  private void check(String namespace, String kind) {
    if (closed) {
      throw new IllegalStateException("vector index is closed");
    }
    Vectors.checkScope(namespace, kind);
  }

  @Override
  public void upsert(String namespace, String kind, Map<String, float[]> vectors) {
    check(namespace, kind);
    int batchDim = Vectors.batchDimension(vectors);
    if (vectors.isEmpty()) {
      return;
    }
    Map<String, float[]> copy = Map.copyOf(vectors);
    // turn vectors are rebuilt from the stored turns when lost, so an append waits for no second
    // WAL flush; their statement turns the flush wait off (docs/defaults.md §3.3). One statement in
    // autocommit is the whole transaction: one round trip on an append's path instead of three
    boolean unsynced = TURNS.equals(kind);
    db.writeStatement(h -> {
      table.upsert(h, namespace, kind, copy, batchDim, unsynced);
      return null;
    });
  }

  /**
   * Every kind's vectors in one statement in autocommit, all kinds or none, without a wait for the
   * WAL flush of its own ({@link VectorTable#upsertAll}): the write path calls this for a segment's
   * record and node vectors right before the segment's records commit, whose flush makes them
   * durable too. Before, one synced statement per kind (round nineteen, docs/defaults.md §3.3). A
   * batch with turn vectors, or of one kind, takes {@link #upsert} per kind.
   */
  @Override
  public void upsertAll(String namespace, Map<String, Map<String, float[]>> vectorsByKind) {
    Objects.requireNonNull(vectorsByKind, "vectorsByKind");
    Map<String, Map<String, float[]>> copy = new LinkedHashMap<>();
    Map<String, Integer> dims = new HashMap<>();
    vectorsByKind.forEach((kind, vectors) -> {
      check(namespace, kind);
      int dim = Vectors.batchDimension(vectors);
      if (!vectors.isEmpty()) {
        copy.put(kind, Map.copyOf(vectors));
        dims.put(kind, dim);
      }
    });
    if (copy.size() < 2 || copy.containsKey(TURNS)) {
      copy.forEach((kind, vectors) -> upsert(namespace, kind, vectors));
      return;
    }
    db.writeStatement(h -> {
      table.upsertAll(h, namespace, copy, dims);
      return null;
    });
  }

  @Override
  public List<ScoredId> search(String namespace, String kind, float[] query, int k, Predicate<String> filter) {
    check(namespace, kind);
    Vectors.checkQueries(List.of(Objects.requireNonNull(query, "query")), k);
    return searchCurrent(namespace, kind, local -> local.search(query, k, filter), List.of());
  }

  /**
   * Reads the index's head once for all {@code queries} (one round trip, not one per query) and
   * searches the local copy with each; a recall hands every query variant of its plan to one call
   * per index, so this is what keeps a recall's head reads at one per index it searches
   * (docs/defaults.md §3.3). The copy searched is the one brought up to that head, so every result
   * sees what a single {@link #search} started at the same moment would.
   */
  @Override
  public List<List<ScoredId>> searchAll(String namespace, String kind, List<float[]> queries, int k,
      Predicate<String> filter) {
    check(namespace, kind);
    Objects.requireNonNull(queries, "queries");
    Vectors.checkQueries(queries, k);
    if (queries.isEmpty()) {
      return List.of();
    }
    List<List<ScoredId>> none = Collections.nCopies(queries.size(), List.of());
    return searchCurrent(namespace, kind, local -> local.searchAll(queries, k, filter), none);
  }

  /**
   * Reads the heads of all {@code kinds} in one statement (one round trip, not one per kind) and
   * searches each kind's local copy, brought up to its head, with every query. The evidence-node
   * channel searches four node kinds with the same queries, and at a small namespace those head
   * reads were most of its time (docs/defaults.md §3.3). Every kind's result sees what a {@link
   * #searchAll} started at the same moment would: the heads are read after the call began.
   */
  @Override
  public Map<String, List<List<ScoredId>>> searchKinds(String namespace, List<String> kinds, List<float[]> queries,
      int k, Predicate<String> filter) {
    Objects.requireNonNull(kinds, "kinds");
    List<String> distinct = VectorTable.distinct(kinds);
    for (String kind : distinct) {
      check(namespace, kind);
    }
    Objects.requireNonNull(queries, "queries");
    Vectors.checkQueries(queries, k);
    Map<String, List<List<ScoredId>>> out = new LinkedHashMap<>();
    if (distinct.isEmpty()) {
      return out;
    }
    List<List<ScoredId>> none = queries.isEmpty() ? List.of() : Collections.nCopies(queries.size(), List.of());
    HeadPoint.Heads at = HeadPoint.entered(db, namespace);
    Map<String, VectorTable.Head> heads;
    if (at != null) {
      heads = at.vectors(distinct);
    } else {
      heads = db.read(h -> table.heads(h, namespace, distinct));
      headReads.incrementAndGet();
    }
    for (String kind : distinct) {
      out.put(kind, queries.isEmpty() ? List.of()
          : searchAt(namespace, kind, heads.get(kind), local -> local.searchAll(queries, k, filter), none));
    }
    return out;
  }

  /**
   * Runs {@code search} on the local copy of one index once it is at the database's head (read
   * now, in one indexed row, or the head of the {@link HeadPoint} the calling thread is inside), or
   * returns {@code empty} when the index holds nothing.
   */
  private <T> T searchCurrent(String namespace, String kind, Function<LocalVectors, T> search,
      T empty) {
    HeadPoint.Heads at = HeadPoint.entered(db, namespace);
    if (at != null) {
      return searchAt(namespace, kind, at.vectors().get(kind), search, empty);
    }
    // one indexed row tells whether anything changed since this copy was brought up to date
    VectorTable.Head head = db.read(h -> table.head(h, namespace, kind));
    headReads.incrementAndGet();
    return searchAt(namespace, kind, head, search, empty);
  }

  /**
   * Runs {@code search} on the local copy of one index once it is at {@code head} (read by the
   * caller after its call began; null: the index holds nothing), or returns {@code empty}.
   */
  private <T> T searchAt(String namespace, String kind, VectorTable.Head head, Function<LocalVectors, T> search,
      T empty) {
    Slot slot = slots.computeIfAbsent(new Key(namespace, kind), key -> new Slot());
    slot.lock.writeLock().lock();
    try {
      LocalVectors have = slot.current;
      if (head == null) {
        slot.current = null;
      } else if (have == null || !have.follows(head) || have.seq() < head.seq()) {
        refresh(namespace, kind, slot);
      }
      // downgrade: searches of one index run in parallel, refreshes one at a time
      slot.lock.readLock().lock();
    } finally {
      slot.lock.writeLock().unlock();
    }
    try {
      LocalVectors local = slot.current;
      return local == null ? empty : search.apply(local);
    } finally {
      slot.lock.readLock().unlock();
    }
  }

  /**
   * Brings the slot to the database's head (read again, so never older than the one the caller
   * saw); called under the slot's write lock. A copy of the same epoch catches up in one statement
   * ({@link VectorTable#catchUp}); a first load, a new epoch, or more changes than the copy holds
   * reads everything in one snapshot.
   */
  private void refresh(String namespace, String kind, Slot slot) {
    LocalVectors have = slot.current;
    if (have != null) {
      VectorTable.CatchUp read = db.read(h -> table.catchUp(h, namespace, kind, have.epoch(), have.server(),
          have.seq()));
      VectorTable.Head head = read.head();
      if (head == null) {
        slot.current = null;
        return;
      }
      if (have.follows(head)) {
        if (have.seq() >= head.seq()) {
          return;
        }
        // replaying more changes than the copy holds costs more than reading it afresh
        if (read.changes().size() <= Math.max(1_000, have.size()) && have.apply(read.changes(), head.seq(), config)) {
          replays.incrementAndGet();
          return;
        }
      }
    }
    slot.current = db.readSnapshot(h -> {
      VectorTable.Head head = table.head(h, namespace, kind);
      if (head == null) {
        return null;
      }
      fullLoads.incrementAndGet();
      return LocalVectors.of(head, table.all(h, namespace, kind), config);
    });
  }

  @Override
  public void remove(String namespace, String kind, Collection<String> ids) {
    check(namespace, kind);
    Objects.requireNonNull(ids, "ids");
    List<String> unique = VectorTable.distinct(ids);
    if (unique.isEmpty()) {
      return;
    }
    db.write(h -> table.remove(h, namespace, kind, unique));
  }

  @Override
  public void forget(String namespace) {
    check(namespace, "all");
    db.write(h -> {
      table.forget(h, namespace);
      return null;
    });
    slots.keySet().removeIf(k -> k.namespace().equals(namespace));
  }

  @Override
  public int size(String namespace, String kind) {
    check(namespace, kind);
    return db.read(h -> table.count(h, namespace, kind));
  }

  /** Full loads of a local copy so far (for tests and monitoring). */
  public long fullLoads() {
    return fullLoads.get();
  }

  /** Incremental catch-ups of a local copy so far (for tests and monitoring). */
  public long replays() {
    return replays.get();
  }

  /**
   * Head rows read by searches so far, one per search, {@link #searchAll} or {@link #searchKinds}
   * call outside a read point (inside one, the point reads them; for tests and monitoring).
   */
  public long headReads() {
    return headReads.get();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      slots.clear();
      db.release();
    }
  }
}
