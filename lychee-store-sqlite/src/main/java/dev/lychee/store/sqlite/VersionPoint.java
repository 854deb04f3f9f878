package dev.lychee.store.sqlite;

import dev.lychee.api.spi.ReadPoint;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * SQLite's {@link ReadPoint}: the file's {@code data_version} read once, by the point's first read
 * of its namespace, and answered to every later read of that namespace inside the point, on any
 * thread that entered it. Every read of the store first asks the version, to tell whether its copy
 * in memory (turns, records, node links, temporal nodes, the read cache) is current; outside a
 * point that is a {@code PRAGMA data_version} on the version connection each time, a statement
 * through JNI under that connection's lock, once per read of every channel, window and search of a
 * recall; the store's only native time in an x20 recall's profile (round twenty-two,
 * docs/measurements.md §6). Inside a point it is one per recall.
 *
 * <p>The version a read gets inside the point is that of the point's first read, so every write
 * committed before it is seen: a copy caught up at that version holds it, and a copy found at any
 * other version is caught up again or read past, as outside. A write committed later may or may
 * not be seen, as the contract allows: a copy another reader already caught up beyond the point is
 * read as it is. The innermost point the thread entered counts, and only for its own database and
 * namespace; every other read asks SQLite as before.
 */
final class VersionPoint implements ReadPoint {
  private static final ThreadLocal<VersionPoint> ENTERED = new ThreadLocal<>();

  private final SqliteDatabase db;
  private final String namespace;
  /** Read by the point's first read, under this object's monitor; then never changed. */
  private long version;
  private boolean read;

  VersionPoint(SqliteDatabase db, String namespace) {
    this.db = Objects.requireNonNull(db, "db");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
  }

  @Override
  public <T> T call(Supplier<T> reads) {
    Objects.requireNonNull(reads, "reads");
    VersionPoint outer = ENTERED.get();
    ENTERED.set(this);
    try {
      return reads.get();
    } finally {
      if (outer == null) {
        ENTERED.remove();
      } else {
        ENTERED.set(outer);
      }
    }
  }

  /**
   * The data version a read of {@code namespace} on {@code db} is answered at: the version of the
   * point the calling thread is inside (read now by the point's first read), else {@code db}'s
   * present version.
   */
  static long of(SqliteDatabase db, String namespace) {
    VersionPoint point = ENTERED.get();
    if (point == null || point.db != db || !point.namespace.equals(namespace)) {
      return db.dataVersion();
    }
    return point.version();
  }

  /** The point's version; the first caller reads it, a thread arriving meanwhile waits for that read. */
  private synchronized long version() {
    if (!read) {
      version = db.dataVersion();
      read = true;
    }
    return version;
  }
}
