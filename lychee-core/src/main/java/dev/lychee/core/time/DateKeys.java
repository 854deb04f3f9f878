package dev.lychee.core.time;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Absolute day keys as the reference implementation derives them (docs/defaults.md §6):
 * three patterns tried in a fixed order, invalid calendar dates rejected, relative dates never
 * resolved here.
 *
 * <ol>
 *   <li>year first: {@code YYYY}, a separator ({@code - / .} or 年), month, a separator ({@code - / .}
 *       or 月), day, an optional 日, and no digit right after;
 *   <li>month name, day (optional st/nd/rd/th), optional comma, year;
 *   <li>day, month name, optional comma, year.
 * </ol>
 *
 * <p>Stateless and thread-safe.
 */
public final class DateKeys {

  /** English month names of 3 to 9 letters with an optional dot; "sept" is accepted. */
  static final String MONTH_NAME =
      "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          + "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";

  private static final Pattern YEAR_FIRST =
      Pattern.compile("(\\d{4})[-/.年](\\d{1,2})[-/.月](\\d{1,2})日?(?!\\d)");
  private static final Pattern MONTH_DAY_YEAR = Pattern.compile(
      "\\b" + MONTH_NAME + "\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern DAY_MONTH_YEAR = Pattern.compile(
      "\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+" + MONTH_NAME + "\\s*,?\\s*(\\d{4})(?!\\d)",
      Pattern.CASE_INSENSITIVE);

  private DateKeys() {}

  /** The first valid date in {@code text} (patterns tried in the order above), if any. */
  public static Optional<LocalDate> normalizeDateKey(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    for (Pattern p : List.of(YEAR_FIRST, MONTH_DAY_YEAR, DAY_MONTH_YEAR)) {
      Matcher m = p.matcher(text);
      while (m.find()) {
        Optional<LocalDate> d = toDate(p, m);
        if (d.isPresent()) {
          return d;
        }
      }
    }
    return Optional.empty();
  }

  /** Every distinct valid date in {@code text}: year-first matches, then month-day-year, then day-month-year. */
  public static List<LocalDate> extractDayKeys(String text) {
    Set<LocalDate> found = new LinkedHashSet<>();
    if (text == null || text.isBlank()) {
      return List.of();
    }
    for (Pattern p : List.of(YEAR_FIRST, MONTH_DAY_YEAR, DAY_MONTH_YEAR)) {
      Matcher m = p.matcher(text);
      while (m.find()) {
        toDate(p, m).ifPresent(found::add);
      }
    }
    return new ArrayList<>(found);
  }

  /** {@code YYYY-MM-DD}. */
  public static String dayKey(LocalDate day) {
    return day.toString();
  }

  /** The month key: the first seven characters of the ISO date, {@code YYYY-MM}. */
  public static String monthKey(LocalDate day) {
    return day.toString().substring(0, 7);
  }

  /** Month number (1-12) of an English month name or abbreviation, or -1. */
  static int monthNumber(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".")) {
      n = n.substring(0, n.length() - 1);
    }
    String[] prefixes = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    for (int i = 0; i < prefixes.length; i++) {
      if (n.startsWith(prefixes[i])) {
        return i + 1;
      }
    }
    return -1;
  }

  private static Optional<LocalDate> toDate(Pattern p, Matcher m) {
    try {
      if (p == YEAR_FIRST) {
        return Optional.of(LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))));
      }
      if (p == MONTH_DAY_YEAR) {
        return Optional.of(LocalDate.of(Integer.parseInt(m.group(3)), monthNumber(m.group(1)),
            Integer.parseInt(m.group(2))));
      }
      return Optional.of(LocalDate.of(Integer.parseInt(m.group(3)), monthNumber(m.group(2)),
          Integer.parseInt(m.group(1))));
    } catch (DateTimeException | NumberFormatException e) {
      return Optional.empty();
    }
  }
}
