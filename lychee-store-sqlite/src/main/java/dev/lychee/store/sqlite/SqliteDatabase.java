package dev.lychee.store.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import dev.lychee.core.store.PrivateFiles;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * One SQLite database file shared by {@link SqliteRecordStore} and {@link SqliteVectorIndex}: a
 * {@link Jdbi} over a small connection pool, the schema migrations, and one in-process write lock.
 *
 * <p>Connections use WAL, {@code busy_timeout}, foreign keys and {@code BEGIN IMMEDIATE}
 * transactions. Writers of this process are serialised by a lock first (SQLite admits one writer at
 * a time anyway, and queueing in Java is cheaper than SQLite's busy-wait); writers of other
 * processes wait through {@code busy_timeout}.
 *
 * <p>Every connection commits at {@code synchronous=NORMAL}; with {@link
 * SqliteStoreConfig#synchronousFull()} a durable write ({@link #write}) then forces the WAL file
 * itself, after it released the write lock, so no writer holds the lock through another's sync
 * (docs/defaults.md §3.3).
 *
 * <p>Users call {@link #acquire()} and {@link #release()}; the file is closed when the last user
 * releases it.
 */
public final class SqliteDatabase {
  private final Path file;
  private final SqliteStoreConfig config;
  private final Jdbi jdbi;
  private final Pool pool;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final VersionWatch versionWatch;
  /** Forces the WAL to disk; a seam for tests that check where a durable write syncs. */
  private final Runnable walSync;
  /** Turns of this process whose vectors are still to be written; background writes give way. */
  private final TurnVectorsDue turnVectorsDue;
  /** Checkpoints outside the write lock; null when SQLite checkpoints inside commits. */
  private final WalCheckpoints checkpoints;
  private int users;
  private boolean closed;

  private SqliteDatabase(Path file, SqliteStoreConfig config, SchemaMigrations migrations, java.util.function.Consumer<Runnable> syncs) {
    this.file = file.toAbsolutePath();
    this.walSync = () -> syncs.accept(this::syncWal);
    this.turnVectorsDue = new TurnVectorsDue(config.backgroundWriteWaitMillis());
    this.config = config;
    SQLiteConfig sc = new SQLiteConfig();
    sc.setJournalMode(SQLiteConfig.JournalMode.WAL);
    sc.setBusyTimeout(config.busyTimeoutMillis());
    sc.enforceForeignKeys(true);
    // NORMAL on every connection: a commit writes its WAL frames without a sync, and the durable
    // writes sync the WAL themselves outside the write lock (write, docs/defaults.md §3.3)
    sc.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    sc.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    String url = "jdbc:sqlite:" + this.file;
    long walLimit = 0;
    if (config.checkpointPages() > 0) {
      // no checkpoint inside a commit, under the write lock: WalCheckpoints runs them after it,
      // told by the WAL's size against this limit (round eighteen, docs/defaults.md §3.3)
      walLimit = WalCheckpoints.limitBytes(config.checkpointPages(), pageSize(url));
      sc.setWalAutocheckpoint(0);
      sc.setJournalSizeLimit((int) Math.min(Integer.MAX_VALUE, walLimit));
    }
    SQLiteDataSource ds = new SQLiteDataSource(sc);
    ds.setUrl(url);
    this.pool = new Pool(ds, config.maxIdleConnections());
    this.jdbi = Jdbi.create(pool);
    migrations.apply(jdbi);
    if (config.synchronousFull()) {
      walSync.run();
    }
    this.versionWatch = new VersionWatch(ds);
    this.checkpoints = config.checkpointPages() > 0
        ? new WalCheckpoints(walFile(), walLimit, this::checkpointPassive) : null;
  }

  /** The page size of the database at {@code url} (that of a new file: the driver's default). */
  private static int pageSize(String url) {
    try (Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA page_size")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the page size of " + url, e);
    }
  }

  /**
   * One {@code PASSIVE} checkpoint on a pooled connection (it waits for no reader or writer); true
   * when it copied every frame of the log (not busy, as many frames checkpointed as logged).
   */
  private boolean checkpointPassive() {
    checkOpen();
    return jdbi.withHandle(h -> h.createQuery("PRAGMA wal_checkpoint(PASSIVE)")
        .map((rs, ctx) -> rs.getInt(1) == 0 && rs.getInt(2) == rs.getInt(3)).one());
  }

  private Path walFile() {
    return file.resolveSibling(file.getFileName() + "-wal");
  }

  /** Opens (creating if needed) the database at {@code file} and migrates it to the latest schema. */
  public static SqliteDatabase open(Path file, SqliteStoreConfig config) {
    return open(file, config, SchemaMigrations.standard());
  }

  static SqliteDatabase open(Path file, SqliteStoreConfig config, SchemaMigrations migrations) {
    return open(file, config, migrations, Runnable::run);
  }

  /**
   * As {@link #open(Path, SqliteStoreConfig)}, with every WAL sync of a durable write run through
   * {@code syncs} (which must run the sync it is given before returning): for tests that look at
   * what holds the write lock while the WAL is synced.
   */
  static SqliteDatabase open(Path file, SqliteStoreConfig config, java.util.function.Consumer<Runnable> syncs) {
    return open(file, config, SchemaMigrations.standard(), syncs);
  }

  private static SqliteDatabase open(Path file, SqliteStoreConfig config, SchemaMigrations migrations,
      java.util.function.Consumer<Runnable> syncs) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(config, "config");
    try {
      // created here rather than by the driver so that a new database is private (0600, 0700)
      PrivateFiles.createFile(file);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot create " + file, e);
    }
    return new SqliteDatabase(file, config, migrations, syncs);
  }

  public Path file() {
    return file;
  }

  public SqliteStoreConfig config() {
    return config;
  }

  /** The shared Jdbi, for reads outside a transaction. */
  Jdbi jdbi() {
    return jdbi;
  }

  /**
   * Runs {@code body} in one write transaction that is on disk when this returns. The single-writer
   * lock is held only for the transaction, not for its sync: the transaction commits at {@code
   * synchronous=NORMAL} (its WAL frames written, not synced) under the lock, and with {@code
   * synchronousFull} the WAL file is synced ({@code fdatasync}) after the lock is released. A WAL
   * commit is durable once its frames are on disk, which is all that {@code synchronous=FULL} adds
   * to a commit; a sync covers every frame written before it, and a checkpoint that copies frames
   * into the database syncs them first itself. Why: every durable write used to hold the lock
   * through its own sync, and an {@code append}'s turn and turn vector waited behind the segmenter
   * lane's segment commits and the background encoder's commits, sync included (rounds nine,
   * sixteen and seventeen, docs/defaults.md §3.3). Other writers of this process may commit
   * between this commit and its sync; their data is durable when their own call returns.
   */
  <T> T write(HandleCallback<T, RuntimeException> body) {
    return write(body, false);
  }

  /**
   * As {@link #write}, for background work (a segment's records commit): it takes the write lock
   * only when no turns of this process wait for their turn vectors, or once it gave way for {@link
   * SqliteStoreConfig#backgroundWriteWaitMillis()} ({@link TurnVectorsDue}).
   */
  <T> T writeInBackground(HandleCallback<T, RuntimeException> body) {
    return write(body, true);
  }

  private <T> T write(HandleCallback<T, RuntimeException> body, boolean giveWay) {
    T out = locked(() -> jdbi.inTransaction(body), giveWay);
    if (config.synchronousFull()) {
      walSync.run();
    }
    return out;
  }

  /** Runs {@code work} holding the single-writer lock of this database, once it is known open. */
  private <T> T locked(java.util.function.Supplier<T> work) {
    return locked(work, false);
  }

  /**
   * As {@link #locked(java.util.function.Supplier)}; with {@code giveWay} the lock is taken when no
   * turn vector is due, and taken again after waiting when one became due while this thread queued
   * for it (an append's turn commit came first), until the bound passed.
   */
  private <T> T locked(java.util.function.Supplier<T> work, boolean giveWay) {
    return locked(work, giveWay, giveWay ? turnVectorsDue.deadline() : 0);
  }

  /** As above, giving way until {@code deadline} (System.nanoTime) at most. */
  private <T> T locked(java.util.function.Supplier<T> work, boolean giveWay, long deadline) {
    while (true) {
      boolean none = !giveWay || turnVectorsDue.awaitNone(deadline);
      writeLock.lock();
      if (none && giveWay && turnVectorsDue.anyDue() && System.nanoTime() - deadline < 0) {
        writeLock.unlock();
        continue;
      }
      break;
    }
    long walBytes = WalCheckpoints.UNREAD; // a write that fails has afterWrite read it
    try {
      checkOpen();
      T out = work.get();
      if (checkpoints != null) {
        walBytes = checkpoints.beforeUnlock();
      }
      return out;
    } finally {
      writeLock.unlock();
      if (checkpoints != null) {
        checkpoints.afterWrite(walBytes);
      }
    }
  }

  /** The turns whose vectors background writes wait for ({@link TurnVectorsDue}). */
  TurnVectorsDue turnVectorsDue() {
    return turnVectorsDue;
  }

  /** The checkpoints outside the write lock; null when SQLite checkpoints inside commits (for tests). */
  WalCheckpoints checkpoints() {
    return checkpoints;
  }

  /** Whether a thread holds the single-writer lock now (for tests). */
  boolean writeLocked() {
    return writeLock.isLocked();
  }

  /**
   * Runs {@code body} in one write transaction that is atomic and survives the death of the
   * process but is not forced to disk by its own call: its WAL frames are synced by the next
   * durable write (or checkpoint) instead. Only for data that can be rebuilt or that a durable
   * write right after covers (the vectors of raw turns, which the write path re-embeds from the
   * stored turns; a segment's record and node vectors, committed right before its records); an OS
   * crash or power loss before the next sync may lose it. Why: an {@code append} otherwise waited
   * for two WAL fsyncs, its turn's and its turn vector's (docs/defaults.md §3.3).
   */
  <T> T writeUnsynced(HandleCallback<T, RuntimeException> body) {
    return locked(() -> jdbi.inTransaction(body));
  }

  /**
   * As {@link #writeUnsynced}, giving way to due turn vectors as {@link #writeInBackground} does,
   * until {@code deadline} ({@link TurnVectorsDue#deadline()}), so that a caller that already gave
   * way before taking its own locks does not start a second full wait here.
   */
  <T> T writeUnsyncedInBackground(long deadline, HandleCallback<T, RuntimeException> body) {
    return locked(() -> jdbi.inTransaction(body), true, deadline);
  }

  /** Forces the WAL file to disk; a missing WAL was checkpointed (and synced) into the database. */
  private void syncWal() {
    Path wal = walFile();
    try (FileChannel ch = FileChannel.open(wal, StandardOpenOption.WRITE)) {
      ch.force(false);
    } catch (NoSuchFileException e) {
      // the last connection checkpointed and removed it: the frames are in the synced database file
    } catch (IOException e) {
      throw new UncheckedIOException("cannot sync " + wal, e);
    }
  }

  /** Runs {@code body} on a pooled connection in autocommit mode. */
  <T> T read(HandleCallback<T, RuntimeException> body) {
    checkOpen();
    return jdbi.withHandle(body);
  }

  /** Runs {@code body} in one read transaction, so that its queries see one snapshot. */
  <T> T readConsistent(HandleCallback<T, RuntimeException> body) {
    checkOpen();
    return jdbi.withHandle(h -> {
      // a deferred BEGIN takes no write lock; the snapshot starts at the first read
      h.execute("BEGIN DEFERRED");
      try {
        return body.withHandle(h);
      } finally {
        h.execute("COMMIT");
      }
    });
  }

  /**
   * SQLite's {@code PRAGMA data_version} as seen by a connection that never writes: it changes
   * after every commit of any other connection, in this process or another, so caches of decoded
   * rows can tell whether they are still current.
   */
  long dataVersion() {
    checkOpen();
    return versionWatch.read();
  }

  /**
   * The data version a read of {@code namespace} is answered at: that of the {@link #readPoint}
   * of the namespace the calling thread is inside, else {@link #dataVersion()}.
   */
  long dataVersion(String namespace) {
    return VersionPoint.of(this, namespace);
  }

  /** A read point of {@code namespace} ({@link VersionPoint}). */
  VersionPoint readPoint(String namespace) {
    return new VersionPoint(this, namespace);
  }

  /** How many times {@code PRAGMA data_version} ran on the version connection (for tests). */
  long dataVersionReads() {
    return versionWatch.reads();
  }

  private synchronized void checkOpen() {
    if (closed) {
      throw new IllegalStateException("database " + file + " is closed");
    }
  }

  /** Registers one more user. */
  public synchronized void acquire() {
    checkOpen();
    users++;
  }

  /** Unregisters a user; the last one closes the pool. */
  public synchronized void release() {
    if (closed) {
      return;
    }
    users--;
    if (users <= 0) {
      closed = true;
      if (checkpoints != null) {
        checkpoints.close();
      }
      versionWatch.close();
      pool.closeAll();
    }
  }

  /** One connection, used only for reading, with a prepared {@code PRAGMA data_version}. */
  private static final class VersionWatch {
    private final Connection connection;
    private final PreparedStatement query;
    private long reads;

    VersionWatch(SQLiteDataSource ds) {
      try {
        this.connection = ds.getConnection();
        this.query = connection.prepareStatement("PRAGMA data_version");
      } catch (SQLException e) {
        throw new IllegalStateException("cannot open the version connection", e);
      }
    }

    synchronized long read() {
      reads++;
      try (ResultSet rs = query.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read PRAGMA data_version", e);
      }
    }

    synchronized long reads() {
      return reads;
    }

    synchronized void close() {
      try {
        query.close();
        connection.close();
      } catch (SQLException ignored) {
        // closing on shutdown: nothing left to do with the error
      }
    }
  }

  /** A tiny pool: SQLite connections are cheap to open but lose their page cache when closed. */
  private static final class Pool implements ConnectionFactory {
    private final SQLiteDataSource ds;
    private final BlockingQueue<Connection> idle;
    private volatile boolean shut;

    Pool(SQLiteDataSource ds, int maxIdle) {
      this.ds = ds;
      this.idle = new ArrayBlockingQueue<>(Math.max(1, maxIdle));
    }

    @Override
    public Connection openConnection() throws SQLException {
      Connection c = idle.poll();
      return c != null ? c : ds.getConnection();
    }

    @Override
    public void closeConnection(Connection c) throws SQLException {
      if (c.isClosed()) {
        return;
      }
      if (!c.getAutoCommit()) {
        c.rollback();
        c.setAutoCommit(true);
      }
      if (shut || !idle.offer(c)) {
        c.close();
      }
    }

    void closeAll() {
      shut = true;
      Connection c;
      while ((c = idle.poll()) != null) {
        try {
          c.close();
        } catch (SQLException ignored) {
          // closing on shutdown: nothing left to do with the error
        }
      }
    }
  }
}
