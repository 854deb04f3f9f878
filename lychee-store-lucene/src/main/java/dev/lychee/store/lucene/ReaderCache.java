package dev.lychee.store.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;

/**
 * Decoded values read from one index, kept while the index shows the same commit.
 *
 * <p>Only the {@link LuceneIndex} of this process can write the directory (Lucene's write lock),
 * and its searchers move to a new reader version after every commit, so the version of the reader a
 * value was read from tells exactly whether it is current. A searcher newer than the cache empties
 * it; a searcher older than the cache (a slow reader that acquired it before a commit) neither reads
 * nor fills it, so a value can only ever be served to readers of the version it was read from.
 */
final class ReaderCache {
  private final Cache<Object, Object> entries;
  private final boolean enabled;
  private long current = Long.MIN_VALUE;

  ReaderCache(int maxEntries) {
    this.enabled = maxEntries > 0;
    // a cached list weighs as many entries as it holds, so one huge listing cannot take the memory
    this.entries = Caffeine.newBuilder()
        .maximumWeight(Math.max(1, maxEntries))
        .weigher((Object k, Object v) -> v instanceof java.util.Collection<?> c ? Math.max(1, c.size()) : 1)
        .build();
  }

  /** The version of the reader behind {@code searcher}. */
  static long version(IndexSearcher searcher) {
    IndexReader r = searcher.getIndexReader();
    return r instanceof DirectoryReader d ? d.getVersion() : Long.MIN_VALUE;
  }

  /** The value cached for {@code key} at this reader version, or null. */
  @SuppressWarnings("unchecked")
  <T> T get(long version, Object key) {
    if (!enabled || !advance(version)) {
      return null;
    }
    return (T) entries.getIfPresent(key);
  }

  /** Caches a value read at this reader version (ignored for an older one). */
  void put(long version, Object key, Object value) {
    if (!enabled) {
      return;
    }
    synchronized (this) {
      if (advance(version)) {
        entries.put(key, value);
      }
    }
  }

  /** Moves to {@code version} if it is newer; true if the cache is now at that version. */
  private synchronized boolean advance(long version) {
    if (version == Long.MIN_VALUE) {
      return false;
    }
    if (version > current) {
      entries.invalidateAll();
      current = version;
    }
    return version == current;
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
