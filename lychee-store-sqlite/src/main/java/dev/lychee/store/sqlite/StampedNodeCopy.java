package dev.lychee.store.sqlite;

import org.jdbi.v3.core.Handle;

/**
 * Rows of one namespace's {@code nodes} kept in memory and caught up by the change stamps of schema
 * V4 ({@link ChangeCounts#NODES}): when the file's {@code data_version} moved since the last look,
 * one snapshot reads the namespace's counts, reads the rows stamped after the write count held, and
 * starts again from nothing when the deletion count moved. What is kept, and how rows are read, is
 * the subclass's ({@link NodeLinks}, {@link NodesByKind}). Not thread-safe: the owner locks.
 */
abstract class StampedNodeCopy {
  private final String namespace;
  private long version = Long.MIN_VALUE;
  /** The namespace's node write count the copy holds every write of; -1: nothing read yet. */
  private long writes = -1;
  private long deletions;

  StampedNodeCopy(String namespace) {
    this.namespace = namespace;
  }

  final String namespace() {
    return namespace;
  }

  /** Catches the copy up to the file as it is at data version {@code now} (or later). */
  final void refresh(SqliteDatabase db, long now) {
    if (now == version) {
      return;
    }
    // one snapshot, so that the counts and the rows read agree; the version was read before it,
    // so the copy holds at least every commit up to that version
    db.readConsistent(h -> {
      long[] changes = ChangeCounts.NODES.read(h, namespace);
      if (changes[1] != deletions) {
        clear();
        writes = -1;
        deletions = changes[1];
      }
      if (changes[0] != writes) {
        readAfter(h, writes);
        writes = changes[0];
      }
      return null;
    });
    version = now;
  }

  /** Forgets every row held. */
  abstract void clear();

  /** Reads (again) the namespace's rows stamped after write {@code rev}; every row for -1. */
  abstract void readAfter(Handle h, long rev);
}
