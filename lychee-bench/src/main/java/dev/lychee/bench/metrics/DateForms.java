package dev.lychee.bench.metrics;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds absolute dates in a text, whatever their rendering ({@code 2023-05-07}, {@code 7 May 2023},
 * {@code May 7th, 2023}; months as {@code May 2023} or {@code 2023-05}), so that a gold answer and
 * the evidence can be compared as dates rather than as words. Stateless.
 *
 * @param rest the text with every date found cut out
 * @param days the days found
 * @param months the months found alone (a month named without a day)
 */
public record DateForms(String rest, Set<LocalDate> days, Set<YearMonth> months) {
  private static final String MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
      + "|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
  private static final String DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
  private static final Pattern ISO_DAY = Pattern.compile("\\b(\\d{4})-(\\d{1,2})-(\\d{1,2})\\b");
  private static final Pattern DAY_MONTH_YEAR =
      Pattern.compile("\\b" + DAY + "\\s+(?:of\\s+)?" + MONTH + ",?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_DAY_YEAR =
      Pattern.compile("\\b" + MONTH + "\\s+" + DAY + ",?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_YEAR =
      Pattern.compile("\\b" + MONTH + ",?\\s+(\\d{4})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern ISO_MONTH = Pattern.compile("\\b(\\d{4})-(\\d{1,2})\\b");
  private static final Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
      Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
      Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));

  public DateForms {
    days = Set.copyOf(days);
    months = Set.copyOf(months);
  }

  /** The dates of {@code text} and what is left of it. */
  public static DateForms of(String text) {
    Set<LocalDate> days = new LinkedHashSet<>();
    Set<YearMonth> months = new LinkedHashSet<>();
    String s = text == null ? "" : text;
    s = cut(s, ISO_DAY, m -> day(days, m.group(1), m.group(2), m.group(3)));
    s = cut(s, DAY_MONTH_YEAR, m -> day(days, m.group(3), String.valueOf(month(m.group(2))), m.group(1)));
    s = cut(s, MONTH_DAY_YEAR, m -> day(days, m.group(3), String.valueOf(month(m.group(1))), m.group(2)));
    s = cut(s, MONTH_YEAR, m -> month(months, m.group(2), month(m.group(1))));
    s = cut(s, ISO_MONTH, m -> month(months, m.group(1), Integer.parseInt(m.group(2))));
    return new DateForms(s, days, months);
  }

  /** The months this text names, alone or as the month of a day. */
  public Set<YearMonth> allMonths() {
    Set<YearMonth> out = new LinkedHashSet<>(months);
    days.forEach(d -> out.add(YearMonth.from(d)));
    return out;
  }

  /** The years of every date found, as text tokens ("2023"). */
  public Set<String> years() {
    Set<String> out = new LinkedHashSet<>();
    allMonths().forEach(m -> out.add(String.valueOf(m.getYear())));
    return out;
  }

  private interface Found {
    boolean accept(Matcher m);
  }

  /** Cuts every match the callback accepts (a match that is no valid date stays in the text). */
  private static String cut(String s, Pattern p, Found found) {
    Matcher m = p.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, found.accept(m) ? " " : Matcher.quoteReplacement(m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static boolean day(Set<LocalDate> days, String y, String mo, String d) {
    try {
      days.add(LocalDate.of(Integer.parseInt(y), Integer.parseInt(mo), Integer.parseInt(d)));
      return true;
    } catch (DateTimeException | NumberFormatException e) {
      return false;
    }
  }

  private static boolean month(Set<YearMonth> months, String y, int mo) {
    try {
      months.add(YearMonth.of(Integer.parseInt(y), mo));
      return true;
    } catch (DateTimeException | NumberFormatException e) {
      return false;
    }
  }

  private static int month(String name) {
    return MONTHS.get(name.toLowerCase(Locale.ROOT).substring(0, 3));
  }
}
