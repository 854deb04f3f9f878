package dev.lychee.store.lucene;

import dev.lychee.core.store.VersionedCache;
import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;

/**
 * Decoded values read from one index, filed under the version of the reader they came from (a
 * {@link VersionedCache}). Only the {@link LuceneIndex} of this process can write the directory
 * (Lucene's write lock), and its searchers move to a new reader version after every commit, so
 * that version tells exactly whether a value is current.
 */
final class ReaderCache {
  private final VersionedCache entries;

  ReaderCache(int maxEntries) {
    this.entries = new VersionedCache(maxEntries);
  }

  /** The version of the reader behind {@code searcher} (the index's searchers are directory readers). */
  static long version(IndexSearcher searcher) {
    return ((DirectoryReader) searcher.getIndexReader()).getVersion();
  }

  /** The value cached for {@code key} at this reader version, or null. */
  <T> T get(long version, Object key) {
    return entries.get(version, key);
  }

  /** Caches a value read at this reader version (ignored once a newer one has been seen). */
  void put(long version, Object key, Object value) {
    entries.put(version, key, value);
  }

  /** A loader that may throw {@link IOException}. */
  @FunctionalInterface
  interface Load<T> {
    T load() throws IOException;
  }

  /** The cached value of {@code key} at this searcher's version, loading and caching it when absent. */
  <T> T get(IndexSearcher searcher, Object key, Load<T> load) throws IOException {
    long v = version(searcher);
    T cached = get(v, key);
    if (cached != null) {
      return cached;
    }
    T value = load.load();
    put(v, key, value);
    return value;
  }
}
