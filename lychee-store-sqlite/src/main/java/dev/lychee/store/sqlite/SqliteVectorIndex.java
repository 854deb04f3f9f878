package dev.lychee.store.sqlite;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.CompositeKey;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.vector.VectorSlab;
import dev.lychee.core.vector.Vectors;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;

/**
 * A durable {@link VectorIndex}: vectors live as float32 BLOBs in table {@code vectors} of the
 * store's SQLite file, keyed by (namespace, kind, id).
 *
 * <p>Searching loads one (namespace, kind) into memory: up to {@link
 * SqliteStoreConfig#exactSearchMaxVectors()} vectors as a contiguous {@link VectorSlab} scanned
 * exactly, above that as an {@link HnswGraph}. Loaded indexes sit in a Caffeine cache bounded by
 * approximate bytes. A write to a (namespace, kind) is applied to its loaded slab in place, or drops
 * its HNSW graph (rebuilt lazily from the BLOBs on the next search). Graphs can be persisted beside
 * the database; each file names the data version it was built from, and a missing or stale file is
 * rebuilt.
 *
 * <p>Writers of one (namespace, kind) are serialised by a lock of that index, which also keeps the
 * cache in step with its rows; searches of it share that lock. Indexes of one namespace are written
 * side by side (an {@code append}'s turn vector does not wait for the background encoder's record
 * and node vectors at this level); {@link #forget} excludes them all through a namespace lock.
 *
 * <p>The vectors of raw turns ({@link #TURNS}) are committed without a WAL sync of their own
 * ({@code SqliteDatabase.writeUnsynced}): atomic and safe against the death of the process, on
 * disk with the next synced commit; the write path re-embeds them from the stored turns if an OS
 * crash loses them. {@link #upsertAll} (a segment's record and node vectors) is one such unsynced
 * transaction too: the write path calls it right before the segment's records commit, whose sync
 * (a WAL sync covers every earlier frame) makes them durable with it (docs/defaults.md §3.3).
 */
public final class SqliteVectorIndex implements VectorIndex {
  private record Key(String namespace, String kind) {}

  /** What the cache holds for one (namespace, kind). */
  private sealed interface Loaded permits Exact, Graph {
    long bytes();
  }

  private record Exact(VectorSlab slab) implements Loaded {
    @Override
    public long bytes() {
      return (long) slab.size() * (Math.max(0, slab.dimension()) * 4L + 96L) + 64L;
    }
  }

  private record Graph(HnswGraph graph) implements Loaded {
    @Override
    public long bytes() {
      return graph.approximateBytes();
    }
  }

  private final SqliteDatabase db;
  private final SqliteStoreConfig config;
  private final Path hnswDir;
  private final Cache<Key, Loaded> cache;
  /** Per namespace: shared by every operation on one of its indexes, exclusive for {@link #forget}. */
  private final Map<String, ReentrantReadWriteLock> namespaceLocks = new ConcurrentHashMap<>();
  /** Per (namespace, kind): exclusive for writes, shared by searches. */
  private final Map<Key, ReentrantReadWriteLock> locks = new ConcurrentHashMap<>();
  private final AtomicLong graphBuilds = new AtomicLong();
  private final AtomicLong graphLoads = new AtomicLong();
  private volatile boolean closed;

  /** An index over a shared database (the database stays open until its last user closes). */
  @Inject
  public SqliteVectorIndex(SqliteDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
    this.config = db.config();
    this.hnswDir = config.hnswDirectoryFor(db.file());
    this.cache = Caffeine.newBuilder()
        .maximumWeight(config.vectorCacheMaxBytes())
        .weigher((Key k, Loaded v) -> (int) Math.min(Integer.MAX_VALUE, v.bytes()))
        .build();
    db.acquire();
  }

  /** Opens an index over its own database file. */
  public static SqliteVectorIndex open(Path file, SqliteStoreConfig config) {
    return new SqliteVectorIndex(SqliteDatabase.open(file, config));
  }

  private ReentrantReadWriteLock namespaceLock(String namespace) {
    return namespaceLocks.computeIfAbsent(namespace, n -> new ReentrantReadWriteLock());
  }

  private ReentrantReadWriteLock lock(Key key) {
    return locks.computeIfAbsent(key, k -> new ReentrantReadWriteLock());
  }

  /** Runs {@code work} holding the namespace lock shared and the given indexes' locks (sorted: no deadlock). */
  private <T> T locked(String namespace, Collection<String> kinds, boolean write, Supplier<T> work) {
    ReentrantReadWriteLock.ReadLock ns = namespaceLock(namespace).readLock();
    ns.lock();
    List<Lock> held = new ArrayList<>();
    try {
      for (String kind : new TreeSet<>(kinds)) {
        ReentrantReadWriteLock l = lock(new Key(namespace, kind));
        Lock one = write ? l.writeLock() : l.readLock();
        one.lock();
        held.add(one);
      }
      return work.get();
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).unlock();
      }
      ns.unlock();
    }
  }

  private void check(String namespace, String kind) {
    if (closed) {
      throw new IllegalStateException("vector index is closed");
    }
    Vectors.checkScope(namespace, kind);
  }

  private static void bumpVersion(Handle h, String namespace, String kind) {
    h.execute("INSERT INTO vector_versions(namespace, kind, version) VALUES (?, ?, 1)"
        + " ON CONFLICT(namespace, kind) DO UPDATE SET version = version + 1", namespace, kind);
  }

  private static int count(Handle h, String namespace, String kind) {
    return h.createQuery("SELECT COUNT(*) FROM vectors WHERE namespace = ? AND kind = ?")
        .bind(0, namespace).bind(1, kind).mapTo(Integer.class).one();
  }

  @Override
  public void upsert(String namespace, String kind, Map<String, float[]> vectors) {
    check(namespace, kind);
    int batchDim = Vectors.batchDimension(vectors);
    if (vectors.isEmpty()) {
      return;
    }
    locked(namespace, List.of(kind), true, () -> {
      HandleCallback<Void, RuntimeException> body = h -> {
        insert(h, namespace, kind, vectors, batchDim);
        return null;
      };
      if (TURNS.equals(kind)) {
        // rebuilt from the stored turns when lost, so the append waits for no second WAL sync
        db.writeUnsynced(body);
      } else {
        db.write(body);
      }
      applyToCache(namespace, kind, vectors);
      return null;
    });
    if (TURNS.equals(kind)) {
      db.turnVectorsDue().vectorsWritten(namespace);
    }
  }

  /**
   * Every kind's vectors in one transaction without a WAL sync of its own: the write path calls
   * this for a segment's record and node vectors right before the segment's records commit, whose
   * synced commit makes these durable too (a WAL sync covers every earlier frame). Before, each kind
   * was its own synced commit, each holding the database's write lock through its sync while an
   * {@code append} waited for it. Atomic across kinds; like every write, safe against the death of
   * the process; an OS crash before the next synced commit may lose it, and then the segment's
   * records (committed after it) are lost too and it is encoded again.
   */
  @Override
  public void upsertAll(String namespace, Map<String, Map<String, float[]>> vectorsByKind) {
    Objects.requireNonNull(vectorsByKind, "vectorsByKind");
    Map<String, Integer> dims = new LinkedHashMap<>();
    vectorsByKind.forEach((kind, vectors) -> {
      check(namespace, kind);
      int d = Vectors.batchDimension(vectors);
      if (!vectors.isEmpty()) {
        dims.put(kind, d);
      }
    });
    if (dims.isEmpty()) {
      return;
    }
    // background work: an append whose turn vector is due goes first; waiting before the index
    // locks too, so that searches of these kinds do not wait meanwhile; one bound for both waits
    long deadline = db.turnVectorsDue().deadline();
    db.turnVectorsDue().awaitNone(deadline);
    locked(namespace, dims.keySet(), true, () -> {
      db.writeUnsyncedInBackground(deadline, h -> {
        dims.forEach((kind, d) -> insert(h, namespace, kind, vectorsByKind.get(kind), d));
        return null;
      });
      dims.keySet().forEach(kind -> applyToCache(namespace, kind, vectorsByKind.get(kind)));
      return null;
    });
  }

  /** Inserts or replaces one index's vectors inside a write transaction, checking the dimension. */
  private static void insert(Handle h, String namespace, String kind, Map<String, float[]> vectors, int batchDim) {
    // the dimension is fixed while the index holds any vector (as in VectorSlab)
    List<Integer> dims = h.createQuery("SELECT dim FROM vectors WHERE namespace = ? AND kind = ? LIMIT 1")
        .bind(0, namespace).bind(1, kind).mapTo(Integer.class).list();
    if (!dims.isEmpty() && dims.get(0) != batchDim) {
      throw new IllegalArgumentException("vectors have dimension " + batchDim
          + " but the index holds dimension " + dims.get(0));
    }
    var batch = h.prepareBatch("INSERT OR REPLACE INTO vectors(namespace, kind, id, dim, vec) VALUES (?, ?, ?, ?, ?)");
    for (Map.Entry<String, float[]> e : vectors.entrySet()) {
      batch.bind(0, namespace).bind(1, kind).bind(2, e.getKey()).bind(3, batchDim)
          .bind(4, VectorBlobs.encode(e.getValue())).add();
    }
    batch.execute();
    bumpVersion(h, namespace, kind);
  }

  /**
   * After a committed write: a loaded slab mirrors the rows (the index's lock keeps them in step),
   * so it takes the write itself; a graph is immutable and is rebuilt on the next search.
   */
  private void applyToCache(String namespace, String kind, Map<String, float[]> vectors) {
    Key key = new Key(namespace, kind);
    Loaded loaded = cache.getIfPresent(key);
    if (loaded instanceof Exact exact) {
      exact.slab().upsert(vectors);
      if (exact.slab().size() <= config.exactSearchMaxVectors()) {
        cache.put(key, exact); // re-weigh
      } else {
        cache.invalidate(key);
      }
    } else {
      cache.invalidate(key);
    }
  }

  @Override
  public List<ScoredId> search(String namespace, String kind, float[] query, int k, Predicate<String> filter) {
    return searchAll(namespace, kind, List.of(Objects.requireNonNull(query, "query")), k, filter).get(0);
  }

  /**
   * All queries under one lock and one cache look-up; an exactly scanned index reads each vector
   * once for all of them ({@link VectorSlab#search(List, int, Predicate)}), a graph is walked once
   * per query.
   */
  @Override
  public List<List<ScoredId>> searchAll(String namespace, String kind, List<float[]> queries, int k,
      Predicate<String> filter) {
    check(namespace, kind);
    Vectors.checkQueries(queries, k);
    return locked(namespace, List.of(kind), false, () -> {
      Loaded loaded = cache.get(new Key(namespace, kind), this::load);
      if (loaded instanceof Graph g) {
        return queries.stream().map(q -> g.graph().search(q, k, filter)).toList();
      }
      return ((Exact) loaded).slab().search(queries, k, filter);
    });
  }

  /** Loads one (namespace, kind) from the rows; called by the cache under the index's lock. */
  private Loaded load(Key key) {
    return db.readConsistent(h -> {
      int n = count(h, key.namespace(), key.kind());
      if (n <= config.exactSearchMaxVectors()) {
        VectorSlab slab = new VectorSlab();
        slab.upsert(readAll(h, key));
        return new Exact(slab);
      }
      long version = h.createQuery("SELECT COALESCE(MAX(version), 0) FROM vector_versions WHERE namespace = ? AND kind = ?")
          .bind(0, key.namespace()).bind(1, key.kind()).mapTo(Long.class).one();
      Path file = graphFile(key);
      if (config.persistHnsw()) {
        HnswGraph saved = HnswGraph.loadIfFresh(file, version, n);
        if (saved != null) {
          graphLoads.incrementAndGet();
          return new Graph(saved);
        }
      }
      Map<String, float[]> all = readAll(h, key);
      int dim = all.values().iterator().next().length;
      HnswGraph graph = HnswGraph.build(all, dim, config);
      graphBuilds.incrementAndGet();
      if (config.persistHnsw()) {
        try {
          graph.save(file, version);
        } catch (IOException e) {
          // the graph is only a cache of the rows; a failed save costs a rebuild later, nothing more
          deleteQuietly(file);
        }
      }
      return new Graph(graph);
    });
  }

  private static Map<String, float[]> readAll(Handle h, Key key) {
    Map<String, float[]> all = new LinkedHashMap<>();
    h.createQuery("SELECT id, vec FROM vectors WHERE namespace = ? AND kind = ?")
        .bind(0, key.namespace()).bind(1, key.kind())
        .map((rs, ctx) -> Map.entry(rs.getString(1), VectorBlobs.decode(rs.getBytes(2))))
        .forEach(e -> all.put(e.getKey(), e.getValue()));
    return all;
  }

  /** The file of a persisted graph: a hash of (namespace, kind), so any names are safe on disk. */
  Path graphFile(String namespace, String kind) {
    return graphFile(new Key(namespace, kind));
  }

  private Path graphFile(Key key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] d = sha.digest(CompositeKey.of(key.namespace(), key.kind()).getBytes(StandardCharsets.UTF_8));
      return hnswDir.resolve(HexFormat.of().formatHex(d, 0, 16) + ".hnsw");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete stale HNSW file " + file, e);
    }
  }

  @Override
  public void remove(String namespace, String kind, Collection<String> ids) {
    check(namespace, kind);
    Objects.requireNonNull(ids, "ids");
    List<String> unique = List.copyOf(new LinkedHashSet<>(ids));
    if (unique.isEmpty()) {
      return;
    }
    locked(namespace, List.of(kind), true, () -> {
      int removed = db.write(h -> {
        int n = 0;
        for (int i = 0; i < unique.size(); i += 400) {
          n += h.createUpdate("DELETE FROM vectors WHERE namespace = :ns AND kind = :kind AND id IN (<ids>)")
              .bind("ns", namespace).bind("kind", kind)
              .bindList("ids", unique.subList(i, Math.min(unique.size(), i + 400))).execute();
        }
        if (n > 0) {
          bumpVersion(h, namespace, kind);
        }
        return n;
      });
      if (removed > 0) {
        Key key = new Key(namespace, kind);
        Loaded loaded = cache.getIfPresent(key);
        if (loaded instanceof Exact exact) {
          exact.slab().remove(unique);
          cache.put(key, exact);
        } else {
          cache.invalidate(key);
        }
      }
      return null;
    });
  }

  @Override
  public void forget(String namespace) {
    check(namespace, "all");
    ReentrantReadWriteLock.WriteLock w = namespaceLock(namespace).writeLock();
    w.lock();
    try {
      List<String> kinds = db.write(h -> {
        List<String> ks = h.createQuery("SELECT kind FROM vector_versions WHERE namespace = ?")
            .bind(0, namespace).mapTo(String.class).list();
        h.execute("DELETE FROM vectors WHERE namespace = ?", namespace);
        // versions are bumped, never reset, so an old graph file can never look fresh again
        h.execute("UPDATE vector_versions SET version = version + 1 WHERE namespace = ?", namespace);
        return ks;
      });
      for (String kind : kinds) {
        cache.invalidate(new Key(namespace, kind));
        deleteQuietly(graphFile(new Key(namespace, kind)));
      }
    } finally {
      w.unlock();
    }
  }

  @Override
  public int size(String namespace, String kind) {
    check(namespace, kind);
    return locked(namespace, List.of(kind), false, () -> {
      // a loaded slab mirrors the rows under the index's lock, so recall need not count them again
      if (cache.getIfPresent(new Key(namespace, kind)) instanceof Exact exact) {
        return exact.slab().size();
      }
      return db.read(h -> count(h, namespace, kind));
    });
  }

  /** How many HNSW graphs were built from rows (for tests and monitoring). */
  public long graphBuilds() {
    return graphBuilds.get();
  }

  /** How many HNSW graphs were loaded from fresh files (for tests and monitoring). */
  public long graphLoads() {
    return graphLoads.get();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      cache.invalidateAll();
      db.release();
    }
  }
}
