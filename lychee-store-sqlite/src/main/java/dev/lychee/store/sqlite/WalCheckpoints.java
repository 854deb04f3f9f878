package dev.lychee.store.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The WAL checkpoints of one database, run on a thread of their own after a write released the
 * write lock, instead of SQLite's automatic checkpoint, which runs inside the commit that crosses
 * its threshold and so under the lock every {@code append} waits for (round eighteen,
 * docs/defaults.md §3.3).
 *
 * <p>The connections run with {@code wal_autocheckpoint=0} and with {@code journal_size_limit} set
 * to the byte size of a WAL of {@code pages} frames ({@link #limitBytes}). SQLite truncates the WAL
 * to that size with the first commit after each restart of the log, and only reuses the file
 * otherwise, so the file is larger than the limit exactly when the log holds more than {@code
 * pages} frames: one {@code stat} after each write tells when a checkpoint is due, as the frame
 * count tells SQLite's own hook. The checkpoint is {@code PASSIVE} (it never waits for a reader or
 * writer and never blocks one); the next writer then starts the log again from its beginning. A
 * checkpoint that could not copy every frame (a reader still on an old snapshot) leaves the file
 * over the limit; the next one is then due once the log grew by {@code pages} more frames than the
 * checkpoint saw, so that writes that never pause do not keep a checkpoint (and its two syncs)
 * running back to back.
 *
 * <p>A checkpoint outside the lock may fall behind writes that never pause (it copies the frames
 * there were when it began, so the log cannot start again while frames keep coming), and its thread
 * may not get a core. So a writer that finds the WAL over {@link #BACKSTOP} times the limit before
 * it releases the lock checkpoints there itself, as SQLite did, after any running checkpoint: no
 * writer of this process can add frames meanwhile, so it copies them all and the next write starts
 * the log again. The WAL is thus bounded, and the write lock holds a checkpoint only then.
 *
 * <p>Durability is not touched: a commit is durable by its own WAL sync, and a checkpoint syncs the
 * WAL before it copies frames and the database file after. Thread-safe.
 */
final class WalCheckpoints implements AutoCloseable {
  /** The WAL file header, then per frame a 24-byte header and one page (the WAL file format). */
  private static final long WAL_HEADER = 32;
  private static final long FRAME_HEADER = 24;
  /** Over this many times the limit, a writer checkpoints before it releases the write lock. */
  static final int BACKSTOP = 4;
  /** For {@link #afterWrite}: the WAL's size was not read under the lock, read it now. */
  static final long UNREAD = -1;

  private final Path wal;
  private final long limitBytes;
  /** Runs one {@code PASSIVE} checkpoint; true when it copied every frame of the log. */
  private final BooleanSupplier checkpoint;
  private final ExecutorService thread;
  /** Whether a checkpoint is queued or running: writes in the meantime queue no second one. */
  private final AtomicBoolean pending = new AtomicBoolean();
  private final AtomicLong runs = new AtomicLong();
  private final AtomicLong lockedRuns = new AtomicLong();
  /** One checkpoint at a time: a second PASSIVE one beside a running one would do nothing. */
  private final Object running = new Object();
  /** The WAL size above which the checkpoint thread is asked for a checkpoint. */
  private volatile long dueAt;

  /**
   * @param wal the database's {@code -wal} file
   * @param limitBytes the WAL size above which a checkpoint is due ({@link #limitBytes})
   * @param checkpoint runs one {@code PASSIVE} checkpoint; true when it copied every frame
   */
  WalCheckpoints(Path wal, long limitBytes, BooleanSupplier checkpoint) {
    this.wal = wal;
    this.limitBytes = limitBytes;
    this.dueAt = limitBytes;
    this.checkpoint = checkpoint;
    this.thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "lychee-sqlite-checkpoint");
      t.setDaemon(true);
      return t;
    });
  }

  /** The bytes of a WAL file of {@code pages} frames of {@code pageSize} bytes. */
  static long limitBytes(int pages, int pageSize) {
    return WAL_HEADER + pages * (FRAME_HEADER + pageSize);
  }

  /** The WAL size above which a checkpoint is due, as set with {@code journal_size_limit}. */
  long limitBytes() {
    return limitBytes;
  }

  /**
   * Called after a write released the write lock: queues a checkpoint when the WAL holds more
   * frames than the limit and none is queued or running. Returns at once.
   *
   * @param walBytes the WAL's size as {@link #beforeUnlock} read it under the lock, or {@link
   *     #UNREAD} when the write failed before that (the size is then read here): no writer of this
   *     process changed the file in between, so one {@code stat} per write is enough
   */
  void afterWrite(long walBytes) {
    long bytes = walBytes == UNREAD ? walBytes() : walBytes;
    if (bytes > dueAt && pending.compareAndSet(false, true)) {
      try {
        thread.execute(this::run);
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        pending.set(false); // closing: the last connection's close checkpoints anyway
      }
    }
  }

  /**
   * Called by a writer that holds the write lock, before it releases it: checkpoints at once when
   * the WAL is over {@link #BACKSTOP} times the limit (a checkpoint outside the lock fell behind).
   *
   * @return the WAL's size, for {@link #afterWrite} (a checkpoint copies frames but leaves the
   *     file's size to the next writer, so the size read before it still holds)
   */
  long beforeUnlock() {
    long bytes = walBytes();
    if (bytes > BACKSTOP * limitBytes) {
      synchronized (running) {
        checkpoint.getAsBoolean();
        dueAt = limitBytes;
      }
      lockedRuns.incrementAndGet();
    }
    return bytes;
  }

  private void run() {
    try {
      synchronized (running) {
        long seen = walBytes();
        // all copied: the next write starts the log again; else due again after as many frames
        dueAt = checkpoint.getAsBoolean() ? limitBytes : Math.max(limitBytes, seen) + limitBytes - WAL_HEADER;
      }
      runs.incrementAndGet();
    } catch (RuntimeException e) {
      // a checkpoint is never needed for correctness (a commit is durable without it); the next
      // write over the limit tries again
    } finally {
      pending.set(false);
    }
  }

  private long walBytes() {
    try {
      return Files.size(wal);
    } catch (NoSuchFileException e) {
      return 0; // checkpointed and removed by a last close
    } catch (IOException e) {
      return Long.MAX_VALUE; // cannot tell: a PASSIVE checkpoint is harmless
    }
  }

  /** How many checkpoints ran on the checkpoint thread (for tests). */
  long runs() {
    return runs.get();
  }

  /** How many checkpoints writers ran under the write lock, over the backstop (for tests). */
  long lockedRuns() {
    return lockedRuns.get();
  }

  /** Whether a checkpoint is queued or running (for tests). */
  boolean pending() {
    return pending.get();
  }

  /** Stops the thread after a running checkpoint finished; queued ones are dropped. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
