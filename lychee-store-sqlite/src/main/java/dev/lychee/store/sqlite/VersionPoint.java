package dev.lychee.store.sqlite;

import dev.lychee.api.spi.ReadPoint;
import dev.lychee.core.store.SharedReadPoint;

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
 * namespace; every other read asks SQLite as before ({@link SharedReadPoint}).
 */
final class VersionPoint extends SharedReadPoint<Long> {
  private final SqliteDatabase db;

  VersionPoint(SqliteDatabase db, String namespace) {
    super(db, namespace);
    this.db = db;
  }

  @Override
  protected Long read() {
    return db.dataVersion();
  }

  /**
   * The data version a read of {@code namespace} on {@code db} is answered at: the version of the
   * point the calling thread is inside (read now by the point's first read), else {@code db}'s
   * present version.
   */
  static long of(SqliteDatabase db, String namespace) {
    Long version = entered(VersionPoint.class, db, namespace);
    return version != null ? version : db.dataVersion();
  }
}
