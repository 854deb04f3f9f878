package dev.lychee.store.sqlite;

import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.VersionedCache;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * The read side the tables share: the database and a read cache keyed by SQLite's
 * {@code data_version}, which moves whenever any connection, of this process or another, commits,
 * so a cached value never outlives the data it was read from.
 */
final class CachedReads {
  private final SqliteDatabase db;
  private final VersionedCache cache;

  CachedReads(SqliteDatabase db) {
    this.db = db;
    this.cache = new VersionedCache(db.config().readCacheMaxEntries());
  }

  SqliteDatabase db() {
    return db;
  }

  /** The file's version a read of {@code namespace} starts at; not read when caching is off. */
  long version(String namespace) {
    return cache.enabled() ? db.dataVersion(namespace) : Long.MIN_VALUE;
  }

  <T> T get(long version, VersionedCache.Key key) {
    return cache.get(version, key);
  }

  void put(long version, VersionedCache.Key key, Object value) {
    cache.put(version, key, value);
  }

  /** The cached value of {@code key} at the current version, else {@code load}'s (then cached). */
  <T> T cached(VersionedCache.Key key, Supplier<T> load) {
    long version = version(key.namespace());
    T hit = cache.get(version, key);
    if (hit != null) {
      return hit;
    }
    T value = load.get();
    cache.put(version, key, value);
    return value;
  }

  /**
   * Rows of one table by id, in the order of {@code ids} (duplicates and unknown ids dropped):
   * cached ones first, the rest in one statement whose ids travel as one JSON array parameter
   * ({@code id IN (SELECT value FROM json_each(?))}, served by the table's unique (namespace, id)
   * index). One fixed SQL text, whatever the number of ids: an {@code IN (?, ?, ...)} list made a
   * new text for every count, which Jdbi parsed again (its parse cache keys on the text: 8% of the
   * main thread's Java samples of a recall at scale 20) and which needed chunks under SQLite's bound
   * parameter limit.
   */
  <T> List<T> byIds(String namespace, Collection<String> ids, char table, String select, RowMapper<T> mapper,
      Function<T, String> idOf) {
    List<String> wanted = List.copyOf(new LinkedHashSet<>(ids));
    long version = version(namespace);
    Map<String, T> found = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String id : wanted) {
      T hit = cache.get(version, new VersionedCache.Key(table, namespace, id));
      if (hit != null) {
        found.put(id, hit);
      } else {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      db.read(h -> {
        h.createQuery(select + " WHERE namespace = ? AND id IN (SELECT value FROM json_each(?))")
            .bind(0, namespace).bind(1, JsonColumns.strings(missing)).map(mapper).forEach(t -> {
              found.put(idOf.apply(t), t);
              cache.put(version, new VersionedCache.Key(table, namespace, idOf.apply(t)), t);
            });
        return null;
      });
    }
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }
}
