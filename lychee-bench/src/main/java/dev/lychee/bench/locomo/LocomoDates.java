package dev.lychee.bench.locomo;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Parses LoCoMo session dates such as {@code "1:56 pm on 8 May, 2023"}. */
public final class LocomoDates {
  private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .appendPattern("h:mm a 'on' d MMMM, yyyy")
      .toFormatter(Locale.ENGLISH);

  private LocomoDates() {}

  /** Parses one {@code session_N_date_time} value; a clear error names the bad value. */
  public static LocalDateTime parse(String value) {
    try {
      return LocalDateTime.parse(value.trim(), FORMAT);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("not a LoCoMo session date: '" + value + "'", e);
    }
  }
}
