package dev.lychee.core.plan;

import dev.lychee.api.DateRange;
import dev.lychee.core.time.TemporalNormalizer;
import java.time.LocalDate;
import java.util.Locale;
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


  private static final TemporalNormalizer NORMALIZER = new TemporalNormalizer();
  /** Absolute expressions need no anchor; any fixed day does. */
  private static final LocalDate NO_ANCHOR = LocalDate.of(2000, 1, 1);

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

  /**
   * The days one absolute date expression covers, read by the shared {@link TemporalNormalizer}
   * (relative words never reach here: the patterns above only match absolute dates).
   */
  static Optional<DateRange> parse(String expr) {
    if (expr == null || expr.isBlank()) {
      return Optional.empty();
    }
    return NORMALIZER.resolve(expr.strip(), NO_ANCHOR);
  }

}
