package dev.lychee.store.sqlite;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.function.LongSupplier;

/**
 * Decoded rows and search results of {@link SqliteRecordStore}, kept only while the database file
 * is unchanged.
 *
 * <p>Validity comes from SQLite's {@code PRAGMA data_version} read on a connection that never
 * writes ({@link SqliteDatabase#dataVersion()}): it changes whenever any other connection commits,
 * whether it belongs to this process or to another one. Every read call first calls
 * {@link #begin()}; a changed version empties the cache. Values read afterwards are offered back
 * with that version and are dropped if a commit was seen in the meantime, so an entry can never be
 * older than the file was when the version it is filed under was read.
 */
final class ReadCache {
  private final LongSupplier version;
  private final Cache<Object, Object> entries;
  private final boolean enabled;
  private long current = Long.MIN_VALUE;

  ReadCache(LongSupplier version, int maxEntries) {
    this.version = version;
    this.enabled = maxEntries > 0;
    // a cached list weighs as many entries as it holds, so one huge listing cannot take the memory
    this.entries = Caffeine.newBuilder()
        .maximumWeight(Math.max(1, maxEntries))
        .weigher((Object k, Object v) -> v instanceof java.util.Collection<?> c ? Math.max(1, c.size()) : 1)
        .build();
  }

  /**
   * Starts a read: checks the file's version and forgets everything when it moved.
   *
   * @return the version to file values under with {@link #put}
   */
  long begin() {
    if (!enabled) {
      return Long.MIN_VALUE;
    }
    long v = version.getAsLong();
    synchronized (this) {
      if (v != current) {
        entries.invalidateAll();
        current = v;
      }
    }
    return v;
  }

  /** The cached value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  <T> T get(Object key) {
    return enabled ? (T) entries.getIfPresent(key) : null;
  }

  /** Caches a value read after {@link #begin()} returned {@code version}, unless a commit happened since. */
  void put(long version, Object key, Object value) {
    if (!enabled) {
      return;
    }
    synchronized (this) {
      if (version == current) {
        entries.put(key, value);
      }
    }
  }

  /** Forgets everything (after a write of this process, before its readers look again). */
  synchronized void clear() {
    entries.invalidateAll();
  }
}
