package dev.lychee.core.store;

import dev.lychee.api.MemoryRecord;

/**
 * What lexical record search runs over in the stores that index plain text (in memory, SQLite):
 * the record's type, text, entities and tags, so a query for "preference" or a tag finds it.
 */
public final class RecordSearchText {
  private RecordSearchText() {}

  /** The searchable text of {@code r}. */
  public static String of(MemoryRecord r) {
    return r.type().wireName() + " " + r.text() + " " + String.join(" ", r.entities()) + " "
        + String.join(" ", r.tags());
  }
}
