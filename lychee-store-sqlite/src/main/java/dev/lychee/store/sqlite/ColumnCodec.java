package dev.lychee.store.sqlite;

import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Dates and times as SQLite stores them: ISO-8601 text (NULL for none). List-valued columns are
 * {@link dev.lychee.core.store.JsonColumns}, shared with the PostgreSQL store.
 */
final class ColumnCodec {
  private ColumnCodec() {}

  static LocalDateTime dateTime(String iso) {
    return iso == null ? null : LocalDateTime.parse(iso);
  }

  static LocalDate date(String iso) {
    return iso == null ? null : LocalDate.parse(iso);
  }

  static String iso(Object temporal) {
    return temporal == null ? null : temporal.toString();
  }
}
