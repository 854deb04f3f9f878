package dev.lychee.store.lucene;

import dev.lychee.core.store.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    // every write call flushes a tiny segment; packing each into a compound file would copy it once
    // more for nothing (merged segments still follow the merge policy's own compound-file rule)
    iwc.setUseCompoundFile(false);
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
   * Runs a write under the lock and commits it; the work sees (through the searcher) every
   * earlier commit. Any exception rolls the writer back to the last commit.
   */
  <T> T write(WriteWork<T> work) {
    writeLock.lock();
    try {
      ensureOpen();
      IndexSearcher searcher = searchers.acquire();
      T result;
      try {
        result = work.run(writer, searcher);
        writer.commit();
      } finally {
        searchers.release(searcher);
      }
      searchers.maybeRefreshBlocking();
      return result;
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

  private void rollback(Throwable cause) {
    if (closed) {
      return;
    }
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
      try {
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
