package dev.lychee.core.time;

import dev.lychee.api.DateRange;
import dev.lychee.api.TemporalScope;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves date expressions against an anchor day (the session date) into days or inclusive day
 * ranges. Used by the offline encoder to date records, and to check the temporal fields an LLM
 * encoder writes.
 *
 * <p><b>Readings</b> (weeks run Monday to Sunday; "the anchor" is the session day):
 * <ul>
 *   <li>Absolute days: ISO {@code 2023-05-08} (also {@code /} {@code .} separators), "8 May, 2023",
 *       "May 8th 2023", "May 8, 2023". Slash dates with the year last ({@code 05/08/2023}) are read
 *       US-style, month first, unless the first number exceeds 12 (then day first).
 *   <li>Absolute months and years: "May 2023", {@code 2023-05}, "in 2022", "summer 2023".
 *   <li>today / tonight / this morning = the anchor; yesterday / last night = anchor − 1;
 *       tomorrow = anchor + 1; the day before/after yesterday/tomorrow = ∓2. "The day before" and
 *       "the day after" with no other reference point are read against the anchor (∓1); callers that
 *       know the event day can pass it as the anchor.
 *   <li>Weekdays: "last Friday" = the latest Friday strictly before the anchor; "next Friday" = the
 *       first Friday strictly after it; "this Friday" = the Friday of the anchor's week; "Friday" or
 *       "on Friday" follow the sentence's {@link Tense} (future: next; past or unknown: last).
 *       Plurals ("on Fridays", "on Thursday evenings") are habits and are not dated.
 *   <li>"N days ago" = that day; "N weeks ago" = the day 7N days back; "N months ago" = that
 *       calendar month; "N years ago" = that calendar year; numbers in digits or words. Vague counts
 *       give ranges: "a few days ago" = anchor − 5 … anchor − 2; "several" 3-7; "a couple" 2.
 *       "In N days", "N weeks later", "N days from now" count forward.
 *   <li>last/this/next week, month, year = that calendar period; last/this/next weekend = the
 *       Saturday-Sunday of the previous/current/following week; "over the weekend" = the latest
 *       weekend started by the anchor (future sentences: the next one).
 *   <li>"earlier this month/week/year" = from the period's first day to the day before the anchor;
 *       "later this month" = from the day after the anchor to the period's end.
 *   <li>Months without a year: "last May" = the latest May before the anchor's month; "next May" =
 *       the first May after it; "this May" = May of the anchor's year; "in May" (and "since/by/
 *       early/late May") = in a future sentence the first May from the anchor's month on, otherwise
 *       the latest May up to the anchor's month. Month-day without a year ("June 3", "3rd of June")
 *       picks the year the same way at day precision.
 *   <li>Seasons (meteorological, northern hemisphere; winter = December to February): last/this/
 *       next summer, "in the summer" (the current one if the anchor lies in it, else per tense).
 *   <li>"recently", "lately", "the other day", "a while ago", "these days": recognised, no date.
 * </ul>
 *
 * <p>Overlapping matches are settled longest first, so "8 May, 2023" wins over "May 2023".
 *
 * <p>Stateless and thread-safe.
 */
public final class TemporalNormalizer {

  private static final Pattern BARE_YEAR = Pattern.compile("(?:19|20)\\d{2}");

  /** Every date expression in {@code text}, in order, with the tense read from the text itself. */
  public List<DateMention> find(String text, LocalDate anchor) {
    return find(text, anchor, Tense.of(text));
  }

  /**
   * Every date expression in {@code text}, in order of appearance, without overlaps.
   *
   * @param anchor the day relative expressions are read against; null leaves them undated
   * @param tense decides between past and future readings of expressions that name no year
   */
  public List<DateMention> find(String text, LocalDate anchor, Tense tense) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    List<DateMention> all = new ArrayList<>();
    for (DateRules.Rule rule : DateRules.RULES) {
      Matcher m = rule.pattern().matcher(text);
      while (m.find()) {
        DateRange range = rule.absolute() || anchor != null
            ? rule.resolver().resolve(m.toMatchResult(), anchor, clauseTense(text, m.start(), tense)) : null;
        all.add(new DateMention(m.start(), m.end(), m.group(), range, rule.absolute()));
      }
    }
    all.sort(Comparator.comparingInt((DateMention d) -> d.end() - d.start()).reversed()
        .thenComparingInt(DateMention::start));
    List<DateMention> kept = new ArrayList<>();
    for (DateMention d : all) {
      boolean overlaps = kept.stream().anyMatch(k -> d.start() < k.end() && k.start() < d.end());
      if (!overlaps) {
        kept.add(d);
      }
    }
    kept.sort(Comparator.comparingInt(DateMention::start));
    return List.copyOf(kept);
  }

  /**
   * The tense of the clause that holds the expression starting at {@code at}, or {@code sentence}
   * when that clause has no marker of its own. One sentence often tells a past event and a plan
   * ("she had to cancel in March, so she is now visiting on July 20th"), and each date belongs to
   * its own clause's tense.
   */
  static Tense clauseTense(String text, int at, Tense sentence) {
    int start = 0;
    Matcher before = CLAUSE_BREAK.matcher(text).region(0, at);
    while (before.find()) {
      start = before.end();
    }
    Matcher after = CLAUSE_BREAK.matcher(text).region(at, text.length());
    int end = after.find() ? after.start() : text.length();
    Tense own = Tense.of(text.substring(start, end));
    return own == Tense.UNKNOWN ? sentence : own;
  }

  /** Where one clause ends and the next begins: punctuation, or a conjunction joining two clauses. */
  private static final Pattern CLAUSE_BREAK = Pattern.compile(
      "[,;:!?]|\\.(?=\\s|$)|\\s(?:so|but|because|while|whereas|although|though|and then|yet)\\s",
      Pattern.CASE_INSENSITIVE);

  /**
   * The days a whole expression (typically one temporal field) denotes: the union of every dated
   * expression in it, so "2023-05-01 to 2023-05-07" is that week. A lone four-digit year is that
   * year. Empty when nothing in it can be dated.
   */
  public Optional<DateRange> resolve(String expression, LocalDate anchor) {
    if (expression == null || expression.isBlank()) {
      return Optional.empty();
    }
    String e = expression.strip();
    if (BARE_YEAR.matcher(e).matches()) {
      int y = Integer.parseInt(e);
      return Optional.of(new DateRange(LocalDate.of(y, 1, 1), LocalDate.of(y, 12, 31)));
    }
    DateRange span = null;
    for (DateMention d : find(e, anchor)) {
      if (d.dated()) {
        span = span == null ? d.range() : span.union(d.range());
      }
    }
    return Optional.ofNullable(span);
  }

  /**
   * A temporal scope from three encoder fields: each non-empty field is resolved; the span covers
   * every field that resolved; a non-empty field that did not resolve stays as text and marks the
   * scope {@linkplain TemporalScope#unparsed() unparsed}.
   */
  public TemporalScope scope(String tRef, String tValidFrom, String tValidTo, LocalDate anchor) {
    DateRange span = null;
    boolean unparsed = false;
    for (String field : new String[] {tRef, tValidFrom, tValidTo}) {
      if (field == null || field.isBlank()) {
        continue;
      }
      Optional<DateRange> r = resolve(field, anchor);
      if (r.isEmpty()) {
        unparsed = true;
      } else {
        span = span == null ? r.get() : span.union(r.get());
      }
    }
    return new TemporalScope(tRef, tValidFrom, tValidTo, span, unparsed);
  }

  /**
   * How a range is written into record text and temporal fields: a day as {@code 2023-05-07}, a
   * whole month as {@code 2023-05}, a whole year as {@code 2023}, anything else as
   * {@code 2023-05-01 to 2023-05-07}.
   */
  public static String label(DateRange r) {
    if (r.start() == null || r.end() == null) {
      return r.toString();
    }
    if (r.start().equals(r.end())) {
      return r.start().toString();
    }
    YearMonth ym = YearMonth.from(r.start());
    if (r.start().getDayOfMonth() == 1 && r.end().equals(ym.atEndOfMonth())) {
      return ym.toString();
    }
    if (r.start().getDayOfYear() == 1 && r.end().getYear() == r.start().getYear()
        && r.end().getMonthValue() == 12 && r.end().getDayOfMonth() == 31) {
      return Integer.toString(r.start().getYear());
    }
    return r.start() + " to " + r.end();
  }

  /** A friendlier label for prose: months as "May 2023", the rest as {@link #label}. */
  public static String prose(DateRange r) {
    String l = label(r);
    if (l.length() == 7 && l.charAt(4) == '-') {
      YearMonth ym = YearMonth.parse(l);
      return ym.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + ym.getYear();
    }
    return l;
  }
}
