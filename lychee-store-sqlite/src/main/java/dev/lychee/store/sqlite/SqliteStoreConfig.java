package dev.lychee.store.sqlite;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Settings of the SQLite store and vector index. Immutable; build with {@link #builder()}, all
 * values are checked once in the constructor.
 *
 * @param busyTimeoutMillis how long a connection waits for another process's write lock (default
 *     5000)
 * @param synchronousFull durable writes when true (default): a returned write survives power loss,
 *     as with {@code PRAGMA synchronous=FULL} (connections commit at NORMAL and each durable write
 *     syncs the WAL after releasing the write lock, docs/defaults.md §3.3); false leaves the WAL
 *     unsynced, which survives process crashes but may lose the last commits on power loss, and is
 *     faster
 * @param maxIdleConnections connections kept open for reuse (default 4)
 * @param exactSearchMaxVectors indexes up to this many vectors are searched by exact scan; above it,
 *     by HNSW (default 20000, the reference's exact-search limit)
 * @param hnswM HNSW links per node (default 16)
 * @param hnswEfConstruction HNSW candidate-list size while building (default 200)
 * @param hnswEf HNSW candidate-list size while searching; the search uses {@code max(ef, k)}
 *     (default 100)
 * @param vectorCacheMaxBytes approximate bytes of loaded vector indexes kept in memory (default 256
 *     MiB); least-recently-used indexes are dropped and reloaded from the database when needed
 * @param persistHnsw save built HNSW graphs to files so that a restart loads instead of rebuilding
 *     (default true); a missing or stale file is rebuilt
 * @param hnswDirectory where HNSW files go; null means {@code <database file>.hnsw} beside the
 *     database
 * @param readCacheMaxEntries decoded records, nodes, turns and lexical hits kept in memory
 *     between reads, a cached list counting one per element (default 50000; 0 turns the cache off). The cache is emptied whenever any
 *     connection, of this process or another, commits to the file, so it never serves stale data.
 *     The same number bounds, apart from the cache, the nodes of one kind kept decoded per recalled
 *     namespace (the temporal channel's list, caught up by change stamps; round twenty, docs/defaults.md
 *     §3.3).
 * @param backgroundWriteWaitMillis how long a background write (a segment's record and node vectors,
 *     its records commit) waits at most, before taking the database's write lock, for turns
 *     committed in this process to get their turn vectors written, so that an {@code append} does
 *     not wait behind it (default 50; 0 turns the waiting off; docs/defaults.md §3.3)
 * @param checkpointPages how many WAL frames (pages) make a checkpoint due; it then runs on a
 *     thread of the database's own after the write that crossed it released the write lock, as a
 *     {@code PASSIVE} checkpoint (default 1000, SQLite's own automatic checkpoint size); 0 leaves
 *     checkpoints to SQLite, inside the commit that crosses 1000 pages, under the write lock
 *     (docs/defaults.md §3.3)
 */
public record SqliteStoreConfig(
    int busyTimeoutMillis,
    boolean synchronousFull,
    int maxIdleConnections,
    int exactSearchMaxVectors,
    int hnswM,
    int hnswEfConstruction,
    int hnswEf,
    long vectorCacheMaxBytes,
    boolean persistHnsw,
    Path hnswDirectory,
    int readCacheMaxEntries,
    int backgroundWriteWaitMillis,
    int checkpointPages) {

  public SqliteStoreConfig {
    positive(busyTimeoutMillis + 1, "busyTimeoutMillis must be >= 0");
    positive(maxIdleConnections + 1, "maxIdleConnections must be >= 0");
    positive(exactSearchMaxVectors + 1, "exactSearchMaxVectors must be >= 0");
    positive(hnswM - 1, "hnswM must be >= 2");
    positive(hnswEfConstruction, "hnswEfConstruction must be > 0");
    positive(hnswEf, "hnswEf must be > 0");
    if (vectorCacheMaxBytes <= 0) {
      throw new IllegalArgumentException("vectorCacheMaxBytes must be > 0");
    }
    positive(readCacheMaxEntries + 1, "readCacheMaxEntries must be >= 0");
    positive(backgroundWriteWaitMillis + 1L, "backgroundWriteWaitMillis must be >= 0");
    positive(checkpointPages + 1L, "checkpointPages must be >= 0 (0: SQLite's own checkpoints)");
  }

  private static void positive(long v, String message) {
    if (v <= 0) {
      throw new IllegalArgumentException(message);
    }
  }

  /** The documented defaults. */
  public static SqliteStoreConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder().busyTimeoutMillis(busyTimeoutMillis).synchronousFull(synchronousFull)
        .maxIdleConnections(maxIdleConnections).exactSearchMaxVectors(exactSearchMaxVectors)
        .hnswM(hnswM).hnswEfConstruction(hnswEfConstruction).hnswEf(hnswEf)
        .vectorCacheMaxBytes(vectorCacheMaxBytes).persistHnsw(persistHnsw).hnswDirectory(hnswDirectory)
        .readCacheMaxEntries(readCacheMaxEntries).backgroundWriteWaitMillis(backgroundWriteWaitMillis)
        .checkpointPages(checkpointPages);
  }

  /** Where HNSW files of the database at {@code dbFile} go. */
  public Path hnswDirectoryFor(Path dbFile) {
    Objects.requireNonNull(dbFile, "dbFile");
    return hnswDirectory != null ? hnswDirectory
        : dbFile.toAbsolutePath().resolveSibling(dbFile.getFileName() + ".hnsw");
  }

  /** Builder of {@link SqliteStoreConfig}; every setter has the documented default. */
  public static final class Builder {
    private int busyTimeoutMillis = 5000;
    private boolean synchronousFull = true;
    private int maxIdleConnections = 4;
    private int exactSearchMaxVectors = 20_000;
    private int hnswM = 16;
    private int hnswEfConstruction = 200;
    private int hnswEf = 100;
    private long vectorCacheMaxBytes = 256L * 1024 * 1024;
    private boolean persistHnsw = true;
    private Path hnswDirectory;
    private int readCacheMaxEntries = 50_000;
    private int backgroundWriteWaitMillis = 50;
    private int checkpointPages = 1000;

    private Builder() {}

    public Builder busyTimeoutMillis(int v) {
      busyTimeoutMillis = v;
      return this;
    }

    public Builder synchronousFull(boolean v) {
      synchronousFull = v;
      return this;
    }

    public Builder maxIdleConnections(int v) {
      maxIdleConnections = v;
      return this;
    }

    public Builder exactSearchMaxVectors(int v) {
      exactSearchMaxVectors = v;
      return this;
    }

    public Builder hnswM(int v) {
      hnswM = v;
      return this;
    }

    public Builder hnswEfConstruction(int v) {
      hnswEfConstruction = v;
      return this;
    }

    public Builder hnswEf(int v) {
      hnswEf = v;
      return this;
    }

    public Builder vectorCacheMaxBytes(long v) {
      vectorCacheMaxBytes = v;
      return this;
    }

    public Builder persistHnsw(boolean v) {
      persistHnsw = v;
      return this;
    }

    public Builder hnswDirectory(Path v) {
      hnswDirectory = v;
      return this;
    }

    public Builder readCacheMaxEntries(int v) {
      readCacheMaxEntries = v;
      return this;
    }

    public Builder backgroundWriteWaitMillis(int v) {
      backgroundWriteWaitMillis = v;
      return this;
    }

    public Builder checkpointPages(int v) {
      checkpointPages = v;
      return this;
    }

    public SqliteStoreConfig build() {
      return new SqliteStoreConfig(busyTimeoutMillis, synchronousFull, maxIdleConnections,
          exactSearchMaxVectors, hnswM, hnswEfConstruction, hnswEf, vectorCacheMaxBytes, persistHnsw,
          hnswDirectory, readCacheMaxEntries, backgroundWriteWaitMillis, checkpointPages);
    }
  }
}
