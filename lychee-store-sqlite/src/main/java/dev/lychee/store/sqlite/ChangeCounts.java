package dev.lychee.store.sqlite;

import org.jdbi.v3.core.Handle;

/**
 * The per-namespace change counts of a table whose rows are rewritten in place ({@code
 * record_changes}, schema V3; {@code node_changes}, V4): a writing transaction bumps the write count
 * once and stamps the rows it writes with it ({@code rev}), a deleting one bumps the deletion count,
 * so that a reader keeping decoded rows in memory catches up by reading the rows stamped after the
 * count it last read, and reads the namespace again when rows were deleted.
 */
enum ChangeCounts {
  RECORDS("record_changes"),
  NODES("node_changes");

  private final String table;

  ChangeCounts(String table) {
    this.table = table;
  }

  /**
   * Counts a change of the namespace in the writing transaction: a deletion ({@code deleted}) or a
   * write; returns the new write count, which the rows written stamp as their {@code rev}.
   */
  long bump(Handle h, String namespace, boolean deleted) {
    // one statement: the upsert returns the count it left (a second SELECT cost a prepare and a
    // step more inside the encoder's commit, which an append's turn may wait for)
    return h.createQuery("INSERT INTO " + table + "(namespace, writes, deletions) VALUES (?, ?, ?)"
            + " ON CONFLICT(namespace) DO UPDATE SET writes = writes + excluded.writes,"
            + " deletions = deletions + excluded.deletions RETURNING writes")
        .bind(0, namespace).bind(1, deleted ? 0 : 1).bind(2, deleted ? 1 : 0).mapTo(Long.class).one();
  }

  /** The namespace's write and deletion counts ({0, 0} before its first change), as a reader sees them. */
  long[] read(Handle h, String namespace) {
    return h.createQuery("SELECT writes, deletions FROM " + table + " WHERE namespace = ?")
        .bind(0, namespace).map((rs, ctx) -> new long[] {rs.getLong(1), rs.getLong(2)})
        .findOne().orElse(new long[] {0, 0});
  }
}
