package dev.lychee.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.jdbi.v3.core.argument.Argument;

/**
 * Column encodings of PostgreSQL: user text made safe for its {@code text} type, which cannot hold
 * U+0000, and dates bound through the driver's {@code java.time} support. List-valued columns are
 * {@link dev.lychee.core.store.JsonColumns}, shared with the SQLite store.
 */
final class Columns {
  /** Escape character of {@link #text}: a private-use code point, doubled when it occurs itself. */
  private static final char ESC = '\uE000';

  private Columns() {}

  /**
   * User text as stored: U+0000 becomes ESC '0' and ESC becomes ESC ESC, so every string
   * round-trips exactly; text holding neither is stored unchanged.
   */
  static String text(String s) {
    if (s == null || s.indexOf('\u0000') < 0 && s.indexOf(ESC) < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\u0000') {
        b.append(ESC).append('0');
      } else if (c == ESC) {
        b.append(ESC).append(ESC);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The inverse of {@link #text}. */
  static String untext(String s) {
    if (s == null || s.indexOf(ESC) < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ESC && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(n == '0' ? '\u0000' : n);
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * A date-time argument bound through the driver's own {@code java.time} support, so no time zone
   * of the JVM ever shifts it (a {@code Timestamp} would, inside a daylight-saving gap).
   */
  static Argument time(LocalDateTime t) {
    return (position, statement, ctx) -> statement.setObject(position, t, Types.TIMESTAMP);
  }

  static Argument day(LocalDate d) {
    return (position, statement, ctx) -> statement.setObject(position, d, Types.DATE);
  }

  static LocalDateTime time(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, LocalDateTime.class);
  }

  static LocalDate day(ResultSet rs, String column) throws SQLException {
    return rs.getObject(column, LocalDate.class);
  }
}
