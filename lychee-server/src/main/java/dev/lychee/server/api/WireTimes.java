package dev.lychee.server.api;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Date-times on the wire: ISO local ({@code 2023-05-08T13:56}), with an offset, or a bare date. */
public final class WireTimes {
  private WireTimes() {}

  /** Parses {@code value} (nullable) for {@code field}; a bad value names the field and the accepted forms. */
  public static LocalDateTime parse(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    try {
      if (v.length() == 10) {
        return LocalDate.parse(v).atStartOfDay();
      }
      if (v.endsWith("Z") || v.matches(".*[+-]\\d\\d:\\d\\d$")) {
        return OffsetDateTime.parse(v).toLocalDateTime();
      }
      return LocalDateTime.parse(v);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(field + " '" + value + "' is not a date-time (expected 2023-05-08T13:56, 2023-05-08T13:56:00Z or 2023-05-08)");
    }
  }
}
