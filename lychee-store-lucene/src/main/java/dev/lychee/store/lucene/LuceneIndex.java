package dev.lychee.store.lucene;

import dev.lychee.core.store.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * One Lucene index in one directory: a single {@link IndexWriter}, a near-real-time
 * {@link SearcherManager}, and the write discipline both SPIs rely on.
 *
 * <p>Writes are serialised by a lock. Each {@link #write} call ends in exactly one commit and only
 * then refreshes the searchers, so readers (in this process or after a crash) never see a part of
 * a call. If a call fails half-way, the writer is rolled back to the last commit and reopened,
 * so the partial changes cannot leak into the next call's commit.
 *
 * <p>Commits are deliberately not grouped across concurrent calls: {@code RecordStore} promises that
 * a returned write is on disk in one transaction of its own, and a shared commit would tie one
 * call's failure (which rolls the writer back) to the fate of the others. Throughput under
 * concurrent writers therefore rests on making each commit cheap, and reads cheap enough not to
 * compete with it (the record store and vector index cache what they decode per reader version).
 *
 * <p><b>Deferred writes.</b> {@link #writeDeferred} is for data the caller can rebuild from elsewhere
 * (the vectors of raw turns, which {@code MemoryWriter.backfillTurnVectors} re-embeds from the
 * stored turns): it is visible to readers when it returns (a near-real-time reopen, no fsync) and
 * reaches disk with the next commit, which follows within {@link LuceneStoreConfig#deferredCommit()}
 * or on {@link #close}; a durable {@link #write} commits them with its own changes (a failed one,
 * rolled back, loses them, and their owner rebuilds them as after a crash). Why: on a loaded disk a commit's fsyncs cost tens of
 * milliseconds, and an {@code append} paid two commits (its turn, then its turn's vector).
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

  /** Work done with the writer; the searcher shows everything committed before the call. */
  @FunctionalInterface
  interface WriteWork<T> {
    T run(IndexWriter writer, IndexSearcher searcher) throws IOException;
  }

  private final Directory directory;
  private final Analyzer analyzer;
  private final LuceneStoreConfig config;
  private final ReentrantLock writeLock = new ReentrantLock();
  private volatile IndexWriter writer;
  private volatile SearcherManager searchers;
  private volatile boolean closed;
  /** Deferred writes are in the writer but not committed yet (guarded by the write lock). */
  private boolean uncommitted;
  /** A commit of deferred writes is scheduled (guarded by the write lock). */
  private boolean commitScheduled;
  private ScheduledExecutorService committer;

  LuceneIndex(Path path, Analyzer analyzer, LuceneStoreConfig config) {
    this.analyzer = analyzer;
    this.config = config;
    try {
      PrivateFiles.createDirectories(path);
      Directory fs = FSDirectory.open(path);
      this.directory = config.fsync() ? fs : new UnsyncedDirectory(fs);
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
    KnnVectorsFormat vectors = new LycheeHnswVectorsFormat(config.hnswMaxConn(), config.hnswBeamWidth());
    iwc.setCodec(new Lucene912Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return vectors;
      }
    });
    IndexWriter w = new IndexWriter(directory, iwc);
    if (!org.apache.lucene.index.DirectoryReader.indexExists(directory)) {
      w.commit(); // an empty first commit, so that readers can always open
    }
    this.writer = w;
    this.searchers = new SearcherManager(w, null);
  }

  /** Runs read-only work on the current committed view. */
  <T> T read(ReadWork<T> work) {
    for (int attempt = 0; ; attempt++) {
      ensureOpen();
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
   * Runs a write under the lock and makes it visible to readers without a commit: it reaches disk
   * with the next commit, at the latest {@link LuceneStoreConfig#deferredCommit()} later or on
   * close (see the class comment). Only for data that can be rebuilt: a crash of the process or a
   * failed write may lose what deferred writes left uncommitted. A deferred commit of zero makes
   * this a durable {@link #write}.
   */
  <T> T writeDeferred(WriteWork<T> work) {
    return run(work, config.deferredCommit().isZero());
  }

  private <T> T run(WriteWork<T> work, boolean durable) {
    writeLock.lock();
    try {
      ensureOpen();
      IndexSearcher searcher = searchers.acquire();
      T result;
      long before = writer.getMaxCompletedSequenceNumber();
      try {
        try {
          result = work.run(writer, searcher);
        } catch (RuntimeException e) {
          if (writer.getMaxCompletedSequenceNumber() == before) {
            // refused before it changed anything (a validation error): nothing to roll back, and
            // a rollback would take deferred writes along
            throw new Refused(e);
          }
          throw e;
        }
        if (durable) {
          // takes what deferred writes left along: one commit, not two
          writer.commit();
          uncommitted = false;
        } else {
          uncommitted = true;
          scheduleCommit();
        }
      } finally {
        searchers.release(searcher);
      }
      searchers.maybeRefreshBlocking();
      return result;
    } catch (Refused e) {
      throw e.refusal;
    } catch (IOException e) {
      rollback(e);
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      rollback(e);
      throw e;
    } finally {
      writeLock.unlock();
    }
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
      writer.commit();
      uncommitted = false;
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
    writeLock.lock();
    try {
      commitScheduled = false;
      if (closed) {
        return;
      }
      try {
        commitDeferred();
      } catch (IOException | RuntimeException e) {
        rollback(e);
      }
    } finally {
      writeLock.unlock();
    }
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
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the Lucene index is closed");
    }
  }

  @Override
  public void close() {
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
        searchers.close();
        writer.close();
        directory.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } finally {
      writeLock.unlock();
    }
  }
}
