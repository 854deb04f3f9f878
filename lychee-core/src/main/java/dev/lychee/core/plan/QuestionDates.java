package dev.lychee.core.plan;

import dev.lychee.api.DateRange;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads explicit dates and ranges in a question ("on 8 May 2023", "in May 2023", "before June
 * 2023", "between 1 May 2023 and 3 June 2023", "in 2022", "2023-05-08") into a date filter.
 * Vague or relative wording ("recently", "last week") yields nothing: those are resolved later
 * against conversation dates, not here.
 */
final class QuestionDates {
  private static final String MONTHS =
      "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
  private static final Map<String, Integer> MONTH_NUM = Map.ofEntries(
      Map.entry("jan", 1), Map.entry("feb", 2), Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5),
      Map.entry("jun", 6), Map.entry("jul", 7), Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10),
      Map.entry("nov", 11), Map.entry("dec", 12));

  private static final String MONTHS_NC = MONTHS.replaceFirst("^\\(", "(?:");

  /** One date expression: ISO day, day-month-year, month-day-year, month-year or a bare year. */
  private static final String DATE = "(?:\\d{4}-\\d{1,2}-\\d{1,2}"
      + "|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?" + MONTHS_NC + "\\.?,?\\s+\\d{4}"
      + "|" + MONTHS_NC + "\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}"
      + "|" + MONTHS_NC + "\\.?,?\\s+(?:of\\s+)?\\d{4}"
      + "|(?:19|20)\\d{2})";
  private static final Pattern BETWEEN = Pattern.compile(
      "\\b(?:between|from)\\s+(" + DATE + ")\\s+(?:and|to|until|till)\\s+(" + DATE + ")\\b");
  private static final Pattern BEFORE = Pattern.compile("\\b(before|by|until|prior to)\\s+(" + DATE + ")\\b");
  private static final Pattern AFTER = Pattern.compile("\\b(after|since)\\s+(" + DATE + ")\\b");
  private static final Pattern ANY = Pattern.compile("\\b(" + DATE + ")\\b");

  private static final Pattern ISO = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})");
  private static final Pattern DMY = Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?" + MONTHS + "\\.?,?\\s+(\\d{4})");
  private static final Pattern MDY = Pattern.compile(MONTHS + "\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})");
  private static final Pattern MY = Pattern.compile(MONTHS + "\\.?,?\\s+(?:of\\s+)?(\\d{4})");
  private static final Pattern Y = Pattern.compile("((?:19|20)\\d{2})");

  private QuestionDates() {}

  /** The date filter the question states, if any. */
  static Optional<DateRange> filter(String question) {
    String q = question.toLowerCase(Locale.ROOT);
    Matcher m = BETWEEN.matcher(q);
    if (m.find()) {
      Optional<DateRange> a = parse(m.group(1));
      Optional<DateRange> b = parse(m.group(2));
      if (a.isPresent() && b.isPresent() && !b.get().end().isBefore(a.get().start())) {
        return Optional.of(new DateRange(a.get().start(), b.get().end()));
      }
    }
    m = BEFORE.matcher(q);
    if (m.find()) {
      boolean inclusive = !m.group(1).equals("before") && !m.group(1).equals("prior to");
      return parse(m.group(2)).map(d -> new DateRange(null, inclusive ? d.end() : d.start().minusDays(1)));
    }
    m = AFTER.matcher(q);
    if (m.find()) {
      boolean inclusive = m.group(1).equals("since");
      return parse(m.group(2)).map(d -> new DateRange(inclusive ? d.start() : d.end().plusDays(1), null));
    }
    m = ANY.matcher(q);
    if (m.find()) {
      return parse(m.group(1));
    }
    return Optional.empty();
  }

  /** The days one date expression covers. */
  static Optional<DateRange> parse(String expr) {
    String s = expr.toLowerCase(Locale.ROOT).strip();
    try {
      Matcher m = ISO.matcher(s);
      if (m.matches()) {
        return Optional.of(DateRange.day(LocalDate.of(num(m, 1), num(m, 2), num(m, 3))));
      }
      m = DMY.matcher(s);
      if (m.matches()) {
        return Optional.of(DateRange.day(LocalDate.of(num(m, 3), month(m.group(2)), num(m, 1))));
      }
      m = MDY.matcher(s);
      if (m.matches()) {
        return Optional.of(DateRange.day(LocalDate.of(num(m, 3), month(m.group(1)), num(m, 2))));
      }
      m = MY.matcher(s);
      if (m.matches()) {
        YearMonth ym = YearMonth.of(num(m, 2), month(m.group(1)));
        return Optional.of(new DateRange(ym.atDay(1), ym.atEndOfMonth()));
      }
      m = Y.matcher(s);
      if (m.matches()) {
        int y = num(m, 1);
        return Optional.of(new DateRange(LocalDate.of(y, 1, 1), LocalDate.of(y, 12, 31)));
      }
    } catch (DateTimeException e) {
      return Optional.empty(); // "31 February" and the like: no filter rather than a wrong one
    }
    return Optional.empty();
  }

  private static int num(Matcher m, int g) {
    return Integer.parseInt(m.group(g));
  }

  private static int month(String name) {
    return MONTH_NUM.get(name.substring(0, 3));
  }
}
