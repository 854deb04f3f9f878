package dev.lychee.core.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Collection;

/**
 * Decoded values of a durable store, filed under the version of the data they were read from: the
 * read cache the SQLite and Lucene stores share. A store passes the version its read started at
 * (SQLite's {@code PRAGMA data_version}, a Lucene reader's version) to every call.
 *
 * <p>Versions only move forward. The first call with a newer version starts a fresh generation;
 * calls with an older version neither read nor fill it, so a reader that started before a commit
 * can never be served, nor leave behind, a value of another version. A value is read after its
 * version was, so it is never older than the data at that version. Lock-free on reads; a list
 * weighs as many entries as it holds, so one huge listing cannot take the memory. Thread-safe.
 */
public final class VersionedCache {
  /** What one entry holds: a value by id or ref, a list, or a search result, of one namespace. */
  public record Key(char what, String namespace, Object key) {}

  private record Generation(long version, Cache<Object, Object> entries) {}

  private final int maxEntries;
  private volatile Generation generation;

  /** @param maxEntries the weight bound of a generation; 0 turns caching off */
  public VersionedCache(int maxEntries) {
    if (maxEntries < 0) {
      throw new IllegalArgumentException("maxEntries must be >= 0: " + maxEntries);
    }
    this.maxEntries = maxEntries;
    this.generation = new Generation(Long.MIN_VALUE, newEntries());
  }

  /** Whether anything is ever cached. */
  public boolean enabled() {
    return maxEntries > 0;
  }

  /** The value filed for {@code key} at {@code version}, or null. */
  @SuppressWarnings("unchecked")
  public <T> T get(long version, Object key) {
    if (!enabled()) {
      return null;
    }
    Generation g = advance(version);
    return g.version() == version ? (T) g.entries().getIfPresent(key) : null;
  }

  /** Files a value read at {@code version}; ignored when a newer version has been seen. */
  public void put(long version, Object key, Object value) {
    if (!enabled()) {
      return;
    }
    Generation g = advance(version);
    if (g.version() == version) {
      g.entries().put(key, value);
    }
  }

  private Generation advance(long version) {
    Generation g = generation;
    if (version <= g.version()) {
      return g;
    }
    synchronized (this) {
      if (version > generation.version()) {
        generation = new Generation(version, newEntries());
      }
      return generation;
    }
  }

  private Cache<Object, Object> newEntries() {
    return Caffeine.newBuilder()
        .maximumWeight(Math.max(1, maxEntries))
        .weigher((Object k, Object v) -> v instanceof Collection<?> c ? Math.max(1, c.size()) : 1)
        .build();
  }
}
