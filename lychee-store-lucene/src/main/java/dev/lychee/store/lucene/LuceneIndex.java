package dev.lychee.store.lucene;

import dev.lychee.core.store.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Lucene index in one directory: a single {@link IndexWriter}, a near-real-time
 * {@link SearcherManager}, and the write discipline both SPIs rely on.
 *
 * <p>Changes to the writer are serialised by a write lock. Each {@link #write} call ends in exactly
 * one commit and then refreshes the searchers, so after a crash no part of a call is seen. If a
 * call fails half-way, the writer is rolled back to the last commit and reopened (and the log
 * replayed), so the partial changes cannot leak into the next call's commit.
 *
 * <p>A commit's fsyncs run outside the write lock, under a commit lock that durable writes hold
 * from their work to the end of their commit (lock order: commit lock, then write lock): logged
 * and deferred writes go on meanwhile and may land in that commit, which is safe because replaying
 * a logged write is idempotent and a deferred one is rebuildable, and each logged write's changes
 * are one writer call, which Lucene applies as one block (a segment's encoding and its vectors,
 * several documents each, as a {@link DocumentBlock}). Durable calls are not grouped into one
 * commit: {@code RecordStore} promises that a returned write is on disk in one transaction of its
 * own, and a shared commit would tie one call's failure (which rolls the writer back) to the fate
 * of the others.
 *
 * <p><b>Deferred writes.</b> {@link #writeDeferred} is for data the caller can rebuild from elsewhere
 * (the vectors of raw turns, which {@code MemoryWriter.backfillTurnVectors} re-embeds from the
 * stored turns): it is visible to readers when it returns (a near-real-time reopen, no fsync) and
 * reaches disk with the next commit, which follows within {@link LuceneStoreConfig#deferredCommit()}
 * or on {@link #close}; a durable {@link #write} commits them with its own changes (a failed one,
 * rolled back, loses them, and their owner rebuilds them as after a crash). Why: on a loaded disk a commit's fsyncs cost tens of
 * milliseconds, and an {@code append} paid two commits (its turn, then its turn's vector).
 *
 * <p><b>Logged writes.</b> {@link #writeLogged} is for the record store's writes on the caller's
 * path (turns, pending segments) and for a segment's encoding (records, nodes, their vectors): the
 * work's changes go to the writer, an entry describing them to the {@link WriteAheadLog}, synced
 * with one {@code fdatasync} after the write lock is let go ({@link #syncLogged}), and readers see
 * them at once (a near-real-time reopen, which syncs the log first); the Lucene commit follows as
 * for deferred writes. Every commit records
 * in its user data the last log entry it covers ({@link #LOG_LSN}), and the log file it covers is
 * emptied after it. On open, and after a rollback, the entries no commit covers are replayed in order through
 * the {@link Replay} the owner gave ({@link #recover}), then committed. Replaying must be
 * idempotent (a commit may hold more than its recorded entry says: an entry whose changes are
 * there already changes nothing), which the turn log and the segment overlap check are. Why: a
 * commit fsyncs several files per new segment plus {@code segments_N}, and that was three
 * quarters of a Lucene {@code append}'s latency (docs/defaults.md §3.3).
 *
 * <p><b>Lazy reopen.</b> With {@link LuceneStoreConfig#refreshOnRead()} a logged or deferred write
 * does not reopen the near-real-time searchers: it counts itself in {@link #changes}, and the next
 * {@link #read}, or the next logged or durable write (whose work must see earlier writes), reopens
 * them first under the write lock (so no reader sees a write half done). A read therefore sees
 * every write that returned before it started, and writes in a row share one reopen. A deferred
 * write's work runs on the searchers as they are: the only deferred writes, turn vectors, check
 * only the index's dimension, which their owner keeps apart (see {@code LuceneVectorIndex}). Why:
 * each reopen flushes a tiny segment, about a quarter of an {@code append}'s time. With it, a
 * durable write's commit also counts itself as a change instead of reopening, and a logged or
 * durable write whose work reads nothing earlier writes could have changed (turns known to come
 * after the stored ones, vectors of a known dimension) says so ({@code currentView}) and skips the
 * reopen before it: the reopens fall to reads, off an {@code append}'s path. A reopen's flush of
 * the writer's buffer into a segment, most of its cost, runs before the write lock is taken
 * ({@link #flushAhead}); under the lock it only opens the readers (and flushes what came in
 * between), so what a reader sees, and when, is unchanged. A read or write that depends only on
 * some writes (a record store's records and nodes, one pending segment) reopens only when the
 * searchers do not cover the last of them ({@link #read(ReadWork, LongSupplier)}, {@link #covers}):
 * the turns appends wrote meanwhile no longer make the background encoder reopen under the write
 * lock (round twenty).
 *
 * <p>Stale {@code write.lock} files need no handling: Lucene's default native lock factory holds an
 * OS file lock, which the OS releases when the process dies.
 */
final class LuceneIndex implements AutoCloseable {

  /** Work done against a searcher. */
  @FunctionalInterface
  interface ReadWork<T> {
    T run(IndexSearcher searcher) throws IOException;
  }

  /**
   * A logged write's work: its result and the log entry that redoes its changes, or a null entry
   * when it changed nothing.
   */
  @FunctionalInterface
  interface LoggedWork<T> {
    Logged<T> run(IndexWriter writer, IndexSearcher searcher) throws IOException;
  }

  /** What a logged write returns and the entry that redoes it (null: nothing changed). */
  record Logged<T>(T result, byte[] entry) {}

  /** Redoes one log entry's changes with the writer; must be idempotent (see the class comment). */
  @FunctionalInterface
  interface Replay {
    void apply(IndexWriter writer, IndexSearcher searcher, byte[] entry) throws IOException;
  }

  /** Commit user data key: the sequence number of the last log entry the commit covers. */
  static final String LOG_LSN = "lychee.wal.lsn";

  private static final Logger LOG = LoggerFactory.getLogger(LuceneIndex.class);

  /** How often {@link #awaitQuiet} looks for merges. */
  private static final long QUIET_POLL_MS = 5;

  /** Work done with the writer; the searcher shows everything committed before the call. */
  @FunctionalInterface
  interface WriteWork<T> {
    T run(IndexWriter writer, IndexSearcher searcher) throws IOException;
  }

  private final Path path;
  private final Directory directory;
  private final Analyzer analyzer;
  private final LuceneStoreConfig config;
  private final ReentrantLock writeLock = new ReentrantLock();
  /**
   * Held by a commit from its start to its end, taken before the write lock: durable writes and
   * commits run one at a time while logged and deferred writes go on (see {@link #run}).
   */
  private final ReentrantLock commitLock = new ReentrantLock();
  private volatile CountingIndexWriter writer;
  private volatile SearcherManager searchers;
  private volatile boolean closed;
  /** Deferred writes are in the writer but not committed yet (guarded by the write lock). */
  private boolean uncommitted;
  /** A commit of deferred writes is scheduled (guarded by the write lock). */
  private boolean commitScheduled;
  private ScheduledExecutorService committer;
  /** The write-ahead log, once {@link #recover} opened it; null without one. */
  private WriteAheadLog log;
  private Replay replay;
  /** Sequence number of the last entry written to the log (guarded by the write lock). */
  private long lastLsn;
  /** Sequence number of the last entry a commit covers (guarded by the write lock). */
  private long committedLsn;
  /** Logged and deferred writes so far whose reopen was left to the next read (lazy reopen). */
  private final AtomicLong changes = new AtomicLong();
  /** The value of {@link #changes} the current searchers cover (written under the write lock). */
  private volatile long reopenedAt;
  /** Reopens of the searchers so far, each under the write lock (for tests). */
  private final AtomicLong reopens = new AtomicLong();
  /** Runs when a commit has begun, outside the write lock, before the writer commits; a no-op except in tests. */
  private volatile Runnable beforeCommit = () -> {};
  /**
   * Searchers a reopen replaced, each still holding the reference {@link #reopen} took before it
   * swapped them (guarded by the write lock): released by {@link #unlockWrite} once the lock is
   * free. Why: the last release of a replaced reader closes it, and closing a near-real-time
   * reader deletes the files no later reader needs (the writer's file deleter); JFR put about
   * a third of the reopens' samples under the write lock there, while appends waited for
   * the lock (docs/defaults.md §3.3).
   */
  private final List<Retired> retired = new ArrayList<>();

  /** A replaced searcher and the manager it came from. */
  private record Retired(SearcherManager manager, IndexSearcher searcher) {}

  /**
   * Makes the searchers: BM25 on the text field counts live documents only, so that lexical scores
   * do not depend on which segments still hold deletes (round twenty-two, {@link LiveStatistics}).
   */
  private final LiveStatistics statistics = new LiveStatistics(StoreFields.TEXT);

  LuceneIndex(Path path, Analyzer analyzer, LuceneStoreConfig config) {
    this(path, analyzer, config, UnaryOperator.identity());
  }

  /** As above, with the index's directory wrapped by {@code wrap} (for tests that watch its files). */
  LuceneIndex(Path path, Analyzer analyzer, LuceneStoreConfig config, UnaryOperator<Directory> wrap) {
    this.path = path;
    this.analyzer = analyzer;
    this.config = config;
    try {
      PrivateFiles.createDirectories(path);
      Directory fs = FSDirectory.open(path);
      this.directory = wrap.apply(config.fsync() ? fs : new UnsyncedDirectory(fs));
      openWriter();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open Lucene index at " + path, e);
    }
  }

  private void openWriter() throws IOException {
    IndexWriterConfig iwc = new IndexWriterConfig(analyzer);
    iwc.setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
    iwc.setRAMBufferSizeMB(config.ramBufferMb());
    // only explicit commits make anything durable
    iwc.setCommitOnClose(false);
    // every durable write flushes a tiny segment and a commit fsyncs each of its files: packed into
    // a compound file that is three files (.cfs, .cfe, .si) instead of a dozen, and on a busy disk
    // each fsync costs milliseconds (merged segments follow the merge policy's own rule)
    iwc.setUseCompoundFile(config.compoundFlushes());
    if (config.compoundFlushes() && config.compoundMaxSegmentMb() > 0) {
      // Lucene's merge policy also decides for flushed segments, and by default leaves any segment
      // above a tenth of the index uncompounded: in a young index that was nearly every merged
      // segment, about fifteen files each for the next commit to fsync (round twenty-five)
      TieredMergePolicy merges = new TieredMergePolicy();
      merges.setNoCFSRatio(1.0);
      merges.setMaxCFSSegmentSizeMB(config.compoundMaxSegmentMb());
      iwc.setMergePolicy(merges);
    }
    // a near-real-time reopen follows every logged and deferred write: it must not wait for
    // merges of the tiny segments it flushed (Lucene waits up to 500 ms by default; JFR showed
    // appends parked there), and merges run in the background anyway
    iwc.setMaxFullFlushMergeWaitMillis(0);
    KnnVectorsFormat graphs = new LycheeHnswVectorsFormat(config.hnswMaxConn(), config.hnswBeamWidth());
    // the vector index's flat fields build no graph (see VectorFields)
    KnnVectorsFormat flat = new LycheeFlatVectorsFormat();
    iwc.setCodec(new Lucene912Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return VectorFields.isFlat(field) ? flat : graphs;
      }
    });
    CountingIndexWriter w = new CountingIndexWriter(directory, iwc);
    if (!org.apache.lucene.index.DirectoryReader.indexExists(directory)) {
      w.commit(); // an empty first commit, so that readers can always open
    }
    this.writer = w;
    long covered = changes.get();
    this.searchers = new SearcherManager(w, statistics);
    this.reopenedAt = covered;
    String lsn = null;
    Iterable<Map.Entry<String, String>> data = w.getLiveCommitData();
    if (data != null) {
      for (Map.Entry<String, String> e : data) {
        if (LOG_LSN.equals(e.getKey())) {
          lsn = e.getValue();
        }
      }
    }
    this.committedLsn = lsn == null ? 0 : Long.parseLong(lsn);
    this.lastLsn = Math.max(lastLsn, committedLsn);
  }

  /**
   * Opens the write-ahead log of this index (creating it if needed) and replays, in order, the
   * entries no commit covers, then commits them; a torn tail is dropped with a warning. From here
   * on {@link #writeLogged} logs instead of committing (unless
   * {@link LuceneStoreConfig#writeAheadLog()} is off or the deferred commit is zero). Called once,
   * by the owner, right after construction.
   *
   * @return how many entries were replayed
   */
  int recover(Replay replay) {
    writeLock.lock();
    try {
      ensureOpen();
      this.replay = replay;
      this.log = new WriteAheadLog(path, config.fsync());
      return replayLog();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot recover the write-ahead log of the Lucene index at " + path, e);
    } finally {
      unlockWrite();
    }
  }

  /** Replays what the log holds beyond the last commit and commits it; the caller holds the write lock. */
  private int replayLog() throws IOException {
    WriteAheadLog.Contents contents = log.read();
    if (contents.torn() > 0) {
      LOG.warn("write-ahead log {}: dropped a torn tail of {} bytes after {} whole entries (a write the process "
          + "died in; it was never acknowledged)", log.path(), contents.torn(), contents.entries().size());
    }
    int replayed = 0;
    for (WriteAheadLog.Entry entry : contents.entries()) {
      lastLsn = Math.max(lastLsn, entry.lsn());
      if (entry.lsn() <= committedLsn) {
        continue; // a commit holds it already
      }
      IndexSearcher searcher = searchers.acquire();
      try {
        replay.apply(writer, searcher, entry.payload());
      } finally {
        searchers.release(searcher);
      }
      // the next entry's work must see this one's changes (the turn log's and segments' checks)
      reopen();
      replayed++;
    }
    if (replayed > 0) {
      LOG.info("write-ahead log {}: replayed {} entries beyond the last commit", log.path(), replayed);
    }
    commit();
    return replayed;
  }

  /**
   * Runs a write under the lock and makes it durable through the write-ahead log: its entry is
   * synced before this returns, its changes are visible to readers at once, and a Lucene commit
   * follows within {@link LuceneStoreConfig#deferredCommit()} or with the next durable write (see
   * the class comment). Without a log (none recovered, {@link LuceneStoreConfig#writeAheadLog()}
   * off, or a deferred commit of zero) it is a durable {@link #write}. A failure rolls the writer
   * back and replays the log, so earlier logged writes stay visible.
   */
  <T> T writeLogged(LoggedWork<T> work) {
    return writeLogged(work, () -> true);
  }

  /**
   * As {@link #writeLogged(LoggedWork)}; when {@code currentView} (asked under the write lock, and
   * before it whether to {@link #flushAhead}, so it must be thread-safe) says false, the work reads
   * nothing from its searcher (it knows by other means that its changes are new), so the searchers
   * are not reopened for it first: the next read or checking write reopens them once for several
   * writes.
   */
  <T> T writeLogged(LoggedWork<T> work, BooleanSupplier currentView) {
    if (log == null || !config.writeAheadLog() || config.deferredCommit().isZero()) {
      return run((w, s) -> work.run(w, s).result(), Mode.COMMIT, () -> true);
    }
    Object[] result = new Object[1];
    this.<byte[]>run((w, s) -> {
      Logged<T> logged = work.run(w, s);
      result[0] = logged.result();
      return logged.entry();
    }, Mode.LOGGED, currentView);
    @SuppressWarnings("unchecked")
    T t = (T) result[0];
    return t;
  }

  /** Runs read-only work on a view that holds every write returned before this call. */
  <T> T read(ReadWork<T> work) {
    return read(work, changes::get);
  }

  /**
   * As {@link #read(ReadWork)} for work that reads only what some writes change (a record store's
   * records and nodes): {@code since} gives the {@link #changeCount()} read right after the last of
   * those writes returned, and the searchers are reopened first only when they do not cover it. The
   * view holds every such write returned before this call and may lack later writes of other
   * documents. Why: the background encoder's reads of records and nodes reopened the searchers
   * under the write lock after each {@code append}'s turn, and the next {@code append} waited for
   * the lock (round twenty, measurements.md §6).
   */
  <T> T read(ReadWork<T> work, LongSupplier since) {
    for (int attempt = 0; ; attempt++) {
      ensureOpen();
      if (reopenedAt < since.getAsLong()) {
        flushAhead();
        writeLock.lock();
        try {
          ensureOpen();
          if (reopenedAt < since.getAsLong()) {
            reopen();
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          unlockWrite();
        }
      }
      SearcherManager manager = searchers;
      IndexSearcher searcher;
      try {
        searcher = manager.acquire();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (org.apache.lucene.store.AlreadyClosedException e) {
        // a failed write swapped in a new writer and searcher manager; retry on the new one
        ensureOpen();
        if (attempt < 3) {
          continue;
        }
        throw e;
      }
      try {
        return work.run(searcher);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        try {
          manager.release(searcher);
        } catch (IOException e) {
          // releasing only decrements a reference count; nothing to recover
        }
      }
    }
  }

  /**
   * Runs a write under the lock and commits it, with what deferred writes left; the work sees
   * (through the searcher) every earlier commit and deferred write. An exception after the work
   * changed something rolls the writer back to the last commit, deferred writes included (their
   * owner rebuilds them, as after a crash); a work refused before it changed anything rolls
   * nothing back.
   */
  <T> T write(WriteWork<T> work) {
    return run(work, true);
  }

  /**
   * As {@link #write(WriteWork)}; when {@code currentView} (asked under the write lock, and before
   * it whether to {@link #flushAhead}, so it must be thread-safe) says false, the work reads nothing
   * that logged or deferred writes since the last reopen could have changed, so the searchers are
   * not reopened for it first.
   */
  <T> T write(WriteWork<T> work, BooleanSupplier currentView) {
    return run(work, Mode.COMMIT, currentView);
  }

  /** How {@link #run} makes a work's changes last. */
  private enum Mode {
    /** Committed before the call returns. */
    COMMIT,
    /** Committed later (rebuildable data). */
    DEFERRED,
    /** Logged and synced before the call returns, committed later; the work returns the entry. */
    LOGGED
  }

  /**
   * Runs a write under the lock and makes it visible to readers without a commit: it reaches disk
   * with the next commit, at the latest {@link LuceneStoreConfig#deferredCommit()} later or on
   * close (see the class comment). Only for data that can be rebuilt: a crash of the process or a
   * failed write may lose what deferred writes left uncommitted. A deferred commit of zero makes
   * this a durable {@link #write}.
   */
  <T> T writeDeferred(WriteWork<T> work) {
    return run(work, config.deferredCommit().isZero());
  }

  /**
   * As {@link #writeDeferred(WriteWork)}, but the searchers are first reopened when {@code
   * currentView} (asked under the write lock, and before it whether to {@link #flushAhead}, so it
   * must be thread-safe) says the work needs every earlier write.
   */
  <T> T writeDeferred(WriteWork<T> work, BooleanSupplier currentView) {
    boolean durable = config.deferredCommit().isZero();
    return run(work, durable ? Mode.COMMIT : Mode.DEFERRED, () -> durable || currentView.getAsBoolean());
  }

  private <T> T run(WriteWork<T> work, boolean durable) {
    return run(work, durable ? Mode.COMMIT : Mode.DEFERRED, () -> durable);
  }

  /**
   * A durable write holds the commit lock from its work to the end of its commit, and the write
   * lock only while it changes the writer: its fsyncs run while logged and deferred writes go on
   * (see {@link #commitOutsideWriteLock}).
   */
  private <T> T run(WriteWork<T> work, Mode mode, BooleanSupplier currentView) {
    boolean commits = mode == Mode.COMMIT;
    boolean logged = mode == Mode.LOGGED;
    if (stale() && currentView.getAsBoolean()) {
      // the work will reopen the searchers under the lock: write the buffered changes out first
      flushAhead();
    }
    if (commits) {
      commitLock.lock();
    }
    T result;
    // the entry this write logged, synced once both locks are free (0: none)
    long toSync = 0;
    try {
      PendingCommit pending = null;
      writeLock.lock();
      try {
        ensureOpen();
        if (currentView.getAsBoolean()) {
          // the work checks what earlier writes left (turn indices, overlapping segments)
          reopenIfStale();
        }
        IndexSearcher searcher = searchers.acquire();
        long before = writer.changes();
        try {
          try {
            result = work.run(writer, searcher);
          } catch (RuntimeException e) {
            if (writer.changes() == before) {
              // refused before it changed anything (a validation error): nothing to roll back, and
              // a rollback would take deferred writes along; counted by the writer, not told by its
              // sequence number, which flushes and commits outside the lock move too (round eighteen)
              throw new Refused(e);
            }
            throw e;
          }
          if (commits) {
            // takes what deferred and logged writes left along: one commit, not two
            pending = beginCommit();
          } else if (logged) {
            byte[] entry = (byte[]) result;
            if (entry != null) {
              // written in sequence order under the lock, synced after it (see syncLogged)
              log.write(++lastLsn, entry);
              toSync = lastLsn;
              uncommitted = true;
              scheduleCommit();
            }
          } else {
            uncommitted = true;
            scheduleCommit();
          }
        } finally {
          searchers.release(searcher);
        }
        if (!commits) {
          changed();
        }
      } catch (Refused e) {
        throw e.refusal;
      } catch (IOException e) {
        rollback(e);
        throw new UncheckedIOException(e);
      } catch (RuntimeException | Error e) {
        rollback(e);
        throw e;
      } finally {
        unlockWrite();
      }
      if (pending != null) {
        commitOutsideWriteLock(pending);
      }
    } finally {
      if (commits) {
        commitLock.unlock();
      }
    }
    if (toSync > 0) {
      syncLogged(toSync);
    }
    return result;
  }

  /**
   * Syncs the log up to a logged write's entry after the write let its locks go: the next write
   * (an {@code append}'s turn behind the background encoder's records) takes the lock meanwhile,
   * and writers that meet here share one sync (round nineteen; the design of round eighteen,
   * measurements.md §6). No reader sees the write before its sync: every reopen syncs to the last
   * entry first ({@link #reopen}). A failed sync rolls the writer back under the lock, as a failed
   * write does (its replay reads the entry back, as before).
   */
  private void syncLogged(long lsn) {
    WriteAheadLog l = log;
    try {
      l.syncTo(lsn);
    } catch (IOException | RuntimeException e) {
      throw rolledBack(e, null);
    }
  }

  /**
   * Rolls the writer back under the write lock after a failure outside it (unless {@code failed}
   * is given and a rollback replaced that writer meanwhile), and returns what to throw.
   */
  private RuntimeException rolledBack(Exception e, IndexWriter failed) {
    writeLock.lock();
    try {
      if (failed == null || writer == failed) {
        rollback(e);
      }
    } finally {
      unlockWrite();
    }
    return e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
  }

  /** A commit begun under the write lock: the writer, the last log entry it covers, the log file it retires. */
  private record PendingCommit(IndexWriter writer, long lsn, int logFile) {}

  /**
   * Starts a commit under both locks: records the last log entry in the writer (every entry up to
   * it is in the writer: log entries are written under the write lock after their changes) and
   * sends later entries to the other log file.
   */
  private PendingCommit beginCommit() {
    long lsn = lastLsn;
    if (lsn > committedLsn) {
      writer.setLiveCommitData(Map.of(LOG_LSN, Long.toString(lsn)).entrySet());
    }
    uncommitted = false;
    int logFile = log == null ? -1 : log.rotate();
    return new PendingCommit(writer, lsn, logFile);
  }

  /**
   * Runs a begun commit's fsyncs without the write lock, so that appends are not held up by them
   * (they were most of an append's wait). Safe because a commit may hold more than it records:
   * a logged write that lands in it meanwhile is replayed idempotently after a crash, a deferred
   * one is rebuildable, and durable writes wait on the commit lock, which the caller holds. A
   * logged write's changes are one writer call, which Lucene applies as one block ({@code
   * updateDocument}, {@code updateDocuments}: a segment's encoding and its vectors are one {@link
   * DocumentBlock} each since round twenty-one, when they stopped holding the commit lock), so such a
   * commit holds all of a write or none. A failure rolls back and replays the log.
   */
  private void commitOutsideWriteLock(PendingCommit pending) {
    try {
      beforeCommit.run();
      pending.writer().commit();
    } catch (IOException | RuntimeException e) {
      throw rolledBack(e, pending.writer());
    }
    writeLock.lock();
    try {
      if (writer == pending.writer()) {
        committedLsn = Math.max(committedLsn, pending.lsn());
        if (log != null) {
          log.markSynced(pending.lsn());
          if (lastLsn == pending.lsn()) {
            log.clear(); // nothing was logged meanwhile: the commit covers every entry
          } else {
            log.retire(pending.logFile());
          }
        }
        // readers see a durable write's changes once they are committed: at once, or (lazy
        // reopen) at the next read, so that the background encoder's commits do not flush a
        // segment under the write lock that an append then waits for
        changed();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      unlockWrite();
    }
  }

  /**
   * After a write: with lazy reopen it counts itself for the next read to reopen the searchers on,
   * otherwise the searchers are reopened now; the caller holds the write lock.
   */
  private void changed() throws IOException {
    if (config.refreshOnRead()) {
      changes.incrementAndGet();
    } else {
      reopen();
    }
  }

  /**
   * How many logged, deferred and committed writes changed the searchers' view so far: read right
   * after a write returned, a value that {@link #read(ReadWork, LongSupplier)} reopens for.
   */
  long changeCount() {
    return changes.get();
  }

  /**
   * Whether the searchers cover a {@link #changeCount()}: a write whose work reads only what the
   * writes up to it changed passes the negation as its {@code currentView} (round twenty).
   */
  boolean covers(long changeCount) {
    return reopenedAt >= changeCount;
  }

  /**
   * Sets what runs when a commit has begun and its writer is about to commit, outside the write
   * lock: lets a test hold a commit there while other writes run.
   */
  void beforeCommit(Runnable hook) {
    this.beforeCommit = Objects.requireNonNull(hook, "hook");
  }

  /** Reopens of the searchers so far (for tests). */
  long reopens() {
    return reopens.get();
  }

  /** Whether a logged or deferred write returned since the searchers were last reopened. */
  private boolean stale() {
    return reopenedAt < changes.get();
  }

  /**
   * Writes what the writer buffers into segments before a reopen takes the write lock, so that the
   * reopen under the lock only opens readers on them (and flushes what arrived in between). Safe
   * without the lock: a flushed segment is seen by no reader until a reopen under the lock opens
   * one, when no write is half done; a commit takes the writer's changes whether flushed or not;
   * and a rollback drops flushed segments as it drops buffered ones. Any failure is left to the
   * reopen under the lock, which flushes again and reports it as it always did. Why: JFR of the
   * async appends had three quarters of the reopens' samples under the write lock in this flush,
   * while the next {@code append}'s turn waited for the lock (docs/defaults.md §3.3).
   */
  private void flushAhead() {
    IndexWriter w = writer;
    try {
      w.flush();
    } catch (IOException | RuntimeException e) {
      // a rollback or close replaced the writer meanwhile, or the flush failed: see above
    }
  }

  /** Reopens the searchers if a write left them stale; the caller holds the write lock. */
  private void reopenIfStale() throws IOException {
    if (stale()) {
      reopen();
    }
  }

  /**
   * Reopens the searchers on everything the writer holds; the caller holds the write lock. The
   * searcher it replaces stays referenced until {@link #unlockWrite} releases it (see
   * {@link #retired}).
   */
  private void reopen() throws IOException {
    long covered = changes.get();
    if (log != null) {
      // no reader sees a logged write before its entry is synced (see syncLogged); mostly a no-op,
      // the writer having synced already
      log.syncTo(lastLsn);
    }
    SearcherManager manager = searchers;
    IndexSearcher old = manager.acquire();
    try {
      manager.maybeRefreshBlocking();
    } catch (IOException | RuntimeException e) {
      manager.release(old);
      throw e;
    }
    retired.add(new Retired(manager, old));
    reopenedAt = Math.max(reopenedAt, covered);
    reopens.incrementAndGet();
  }

  /**
   * Unlocks the write lock and then, if this was its outermost hold, releases the searchers that
   * reopens replaced meanwhile: a reader's close (and the file deletions it brings) runs without
   * the lock. Every holder of the write lock unlocks through here.
   */
  private void unlockWrite() {
    List<Retired> release = List.of();
    if (writeLock.getHoldCount() == 1 && !retired.isEmpty()) {
      release = List.copyOf(retired);
      retired.clear();
    }
    writeLock.unlock();
    releaseAll(release);
  }

  private static void releaseAll(List<Retired> release) {
    for (Retired r : release) {
      try {
        r.manager().release(r.searcher());
      } catch (IOException | RuntimeException e) {
        // a reader that fails to close leaves files for the writer's next deletion pass; nothing a
        // caller could act on, and its own write has already succeeded
        LOG.warn("closing a replaced Lucene reader failed", e);
      }
    }
  }

  /** Whether the calling thread holds the write lock (for tests). */
  boolean holdsWriteLock() {
    return writeLock.isHeldByCurrentThread();
  }

  /** Carries a work's exception past the rollback when the work changed nothing. */
  private static final class Refused extends RuntimeException {
    final RuntimeException refusal;

    Refused(RuntimeException refusal) {
      super(null, null, false, false);
      this.refusal = refusal;
    }
  }

  /** Commits what deferred writes left; the caller holds the write lock. */
  private void commitDeferred() throws IOException {
    if (uncommitted) {
      commit();
    }
  }

  /**
   * Commits the writer under the write lock (on open, after a rollback, on close), recording the
   * last log entry it covers, then empties the log: every logged entry's changes are in the writer.
   */
  private void commit() throws IOException {
    if (lastLsn > committedLsn) {
      writer.setLiveCommitData(Map.of(LOG_LSN, Long.toString(lastLsn)).entrySet());
    }
    writer.commit();
    committedLsn = lastLsn;
    uncommitted = false;
    if (log != null) {
      // every entry is in the commit: a write still to sync (or closing) needs no sync of its own
      log.markSynced(lastLsn);
      log.clear();
    }
  }

  /** Schedules one commit of deferred writes, unless one is scheduled; the caller holds the write lock. */
  private void scheduleCommit() {
    if (commitScheduled) {
      return;
    }
    if (committer == null) {
      committer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lychee-lucene-commit");
        t.setDaemon(true);
        return t;
      });
    }
    commitScheduled = true;
    committer.schedule(this::commitNow, config.deferredCommit().toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The scheduled commit: a failure rolls back (the deferred data is rebuilt by its owner). */
  private void commitNow() {
    commitLock.lock();
    try {
      PendingCommit pending;
      writeLock.lock();
      try {
        commitScheduled = false;
        if (closed || !uncommitted) {
          return;
        }
        pending = beginCommit();
      } finally {
        unlockWrite();
      }
      commitOutsideWriteLock(pending);
    } catch (RuntimeException e) {
      // rolled back (and the log replayed) already; the deferred data is rebuilt by its owner
    } finally {
      commitLock.unlock();
    }
  }

  /**
   * Waits until this index does nothing in the background: what deferred and logged writes left
   * uncommitted is committed now (the same commit the scheduled one would make within
   * {@link LuceneStoreConfig#deferredCommit()}, sooner), then every merge Lucene's scheduler runs
   * or has queued has ended, those that finished merges start included. Why: after an ingest
   * returned, that commit and the merges it started (the vector index's rebuild HNSW graphs) ran
   * into {@code eval speed}'s warm-up and beside its lone query embeddings (round twenty-four,
   * measurements.md §6); a measurement waits here so that it counts them in the ingest.
   *
   * @return true when quiet, false when {@code timeout} passed first
   */
  boolean awaitQuiet(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    ensureOpen();
    commitNow();
    // a merge that ends may start the next one: quiet only when two looks in a row see none
    int quietLooks = 0;
    while (quietLooks < 2) {
      quietLooks = merging() ? 0 : quietLooks + 1;
      if (quietLooks < 2) {
        if (System.nanoTime() - deadline > 0) {
          return false;
        }
        try {
          Thread.sleep(QUIET_POLL_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  /** Whether a merge is queued or under way in the writer. */
  boolean merging() {
    IndexWriter w = writer;
    return w.hasPendingMerges() || !w.getMergingSegments().isEmpty();
  }

  private void rollback(Throwable cause) {
    if (closed) {
      return;
    }
    uncommitted = false;
    try {
      SearcherManager old = searchers;
      writer.rollback();
      old.close();
      openWriter();
      if (log != null) {
        // acknowledged logged writes were in the writer too: bring them back
        replayLog();
      }
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * The writer that works are given now: a rollback replaces it, and with it what the writes since
   * the last commit left (the deferred ones are gone). For an owner that keeps, under the write
   * lock, what it learnt about the index per writer ({@code LuceneVectorIndex}'s sizes).
   */
  IndexWriter currentWriter() {
    return writer;
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the Lucene index is closed");
    }
  }

  @Override
  public void close() {
    commitLock.lock();
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (committer != null) {
        committer.shutdownNow();
      }
      try {
        // what deferred writes left reaches disk with the store's last commit
        commitDeferred();
        // the readers reopens replaced close before the writer and the directory they read
        releaseAll(List.copyOf(retired));
        retired.clear();
        searchers.close();
        writer.close();
        directory.close();
        if (log != null) {
          log.close();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } finally {
      unlockWrite();
      commitLock.unlock();
    }
  }
}
