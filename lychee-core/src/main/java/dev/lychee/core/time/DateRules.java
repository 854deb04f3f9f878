package dev.lychee.core.time;

import dev.lychee.api.DateRange;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * The table of date expressions the {@link TemporalNormalizer} understands, each with how it
 * resolves against an anchor day and a sentence tense. The rules and their readings are listed in
 * {@link TemporalNormalizer}'s documentation.
 */
final class DateRules {

  /** Resolves one match; returns null for an expression that is recognised but names no date. */
  @FunctionalInterface
  interface Resolver {
    DateRange resolve(MatchResult m, LocalDate anchor, Tense tense);
  }

  /**
   * One rule.
   *
   * @param absolute the expression carries its own year, so it needs no anchor
   */
  record Rule(Pattern pattern, boolean absolute, Resolver resolver) {}

  private static final String MONTH = DateKeys.MONTH_NAME;
  private static final String MONTH_FULL =
      "(january|february|march|april|may|june|july|august|september|october|november|december)";
  private static final String WEEKDAY = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
  private static final String ORD = "(\\d{1,2})(?:st|nd|rd|th)?";
  private static final String NUM = Quantity.REGEX;
  private static final String UNIT = "(day|week|month|year)s?";
  private static final String SEASON = "(spring|summer|fall|autumn|winter)";

  static final List<Rule> RULES = build();

  private DateRules() {}

  private static List<Rule> build() {
    List<Rule> r = new ArrayList<>();
    // ---- absolute days
    r.add(abs("(?<![\\d.])(\\d{4})[-/.](\\d{1,2})[-/.](\\d{1,2})(?![\\d])",
        (m, a, t) -> day(num(m, 1), num(m, 2), num(m, 3))));
    r.add(abs("\\b" + MONTH + "\\s+" + ORD + "\\s*,?\\s*(\\d{4})\\b",
        (m, a, t) -> day(num(m, 3), month(m.group(1)), num(m, 2))));
    r.add(abs("\\b" + ORD + "(?:\\s+of)?\\s+" + MONTH + "\\s*,?\\s*(\\d{4})\\b",
        (m, a, t) -> day(num(m, 3), month(m.group(2)), num(m, 1))));
    // slash dates with the year last: US month/day unless the first number cannot be a month
    r.add(abs("(?<![\\d/])(\\d{1,2})/(\\d{1,2})/(\\d{4})(?![\\d/])", (m, a, t) -> {
      int first = num(m, 1);
      int second = num(m, 2);
      return first > 12 ? day(num(m, 3), second, first) : day(num(m, 3), first, second);
    }));
    // ---- absolute months and years
    r.add(abs("\\b" + MONTH + "\\s*,?\\s+(\\d{4})\\b",
        (m, a, t) -> CalendarSpans.month(num(m, 2), month(m.group(1)))));
    r.add(abs("(?<![\\d.])(\\d{4})-(\\d{1,2})(?![\\d-])", (m, a, t) -> {
      int mo = num(m, 2);
      return mo >= 1 && mo <= 12 ? CalendarSpans.month(num(m, 1), mo) : null;
    }));
    r.add(abs("\\b(?:in|during|since|of|back in|early|late)\\s+((?:19|20)\\d{2})\\b",
        (m, a, t) -> CalendarSpans.year(num(m, 1))));
    r.add(abs("\\b" + SEASON + "\\s+(?:of\\s+)?((?:19|20)\\d{2})\\b",
        (m, a, t) -> CalendarSpans.season(lower(m, 1), num(m, 2))));
    // ---- days relative to the anchor
    r.add(rel("\\bthe\\s+day\\s+before\\s+yesterday\\b", (m, a, t) -> DateRange.day(a.minusDays(2))));
    r.add(rel("\\bthe\\s+day\\s+after\\s+tomorrow\\b", (m, a, t) -> DateRange.day(a.plusDays(2))));
    r.add(rel("\\b(?:yesterday|last\\s+night)\\b", (m, a, t) -> DateRange.day(a.minusDays(1))));
    r.add(rel("\\b(?:today|tonight|this\\s+(?:morning|afternoon|evening))\\b", (m, a, t) -> DateRange.day(a)));
    r.add(rel("\\btomorrow\\b", (m, a, t) -> DateRange.day(a.plusDays(1))));
    r.add(rel("\\bthe\\s+(?:day|night|evening)\\s+before\\b", (m, a, t) -> DateRange.day(a.minusDays(1))));
    r.add(rel("\\b(?:the\\s+(?:day|morning)\\s+after|the\\s+(?:next|following)\\s+day)\\b",
        (m, a, t) -> DateRange.day(a.plusDays(1))));
    // ---- weekdays
    // "every Tuesday", "on Tuesdays" and "on Thursday evenings" are habits, not dates
    r.add(rel("\\b(?<!every\\s)(?<!each\\s)(?:(last|this\\s+past|past|this\\s+coming|coming|this|next|on)\\s+)?"
        + WEEKDAY + "\\b(?!\\s+(?:mornings|afternoons|evenings|nights)\\b)",
        (m, a, t) -> DateRange.day(weekday(m.group(1), DayOfWeek.valueOf(upper(m, 2)), a, t))));
    // ---- quantities before / after the anchor
    r.add(rel("\\b" + NUM + "\\s+" + UNIT + "\\s+ago\\b", (m, a, t) -> ago(m.group(1), lower(m, 2), a)));
    r.add(rel("\\b(?:in|within)\\s+" + NUM + "\\s+" + UNIT + "\\b|\\b" + NUM + "\\s+" + UNIT
        + "\\s+(?:later|from\\s+now)\\b", (m, a, t) -> m.group(1) != null
        ? ahead(m.group(1), lower(m, 2), a) : ahead(m.group(3), lower(m, 4), a)));
    // ---- named periods relative to the anchor
    r.add(rel("\\b(last|past|this\\s+past|this|next|coming|this\\s+coming)\\s+(week|month|year)\\b",
        (m, a, t) -> period(lower(m, 1), lower(m, 2), a)));
    r.add(rel("\\b(last|this\\s+past|past|this|next|this\\s+coming|coming)\\s+weekend\\b",
        (m, a, t) -> weekend(lower(m, 1), a)));
    r.add(rel("\\b(?:over|on|during|at)\\s+the\\s+weekend\\b", (m, a, t) -> CalendarSpans.nearestWeekend(a, t)));
    r.add(rel("\\bearlier\\s+this\\s+(week|month|year)\\b", (m, a, t) -> earlier(lower(m, 1), a)));
    r.add(rel("\\blater\\s+this\\s+(week|month|year)\\b", (m, a, t) -> later(lower(m, 1), a)));
    // ---- months without a year
    r.add(rel("\\b(last|this|next|in|during|since|until|by|early|late|mid|this\\s+past)[\\s-]+" + MONTH_FULL + "\\b",
        (m, a, t) -> namedMonth(lower(m, 1), month(m.group(2)), a, t)));
    r.add(rel("\\b" + MONTH_FULL + "\\s+" + ORD + "\\b",
        (m, a, t) -> monthDay(month(m.group(1)), num(m, 2), a, t)));
    r.add(rel("\\b" + ORD + "\\s+(?:of\\s+)?" + MONTH_FULL + "\\b",
        (m, a, t) -> monthDay(month(m.group(2)), num(m, 1), a, t)));
    // ---- seasons without a year
    r.add(rel("\\b(last|this\\s+past|this|next|this\\s+coming|in\\s+the|over\\s+the|during\\s+the)\\s+" + SEASON + "\\b",
        (m, a, t) -> season(lower(m, 1), lower(m, 2), a, t)));
    // ---- recognised, deliberately undated
    r.add(rel("\\b(?:recently|lately|the\\s+other\\s+day|a\\s+while\\s+(?:ago|back)|some\\s+time\\s+ago"
        + "|not\\s+long\\s+ago|these\\s+days|nowadays)\\b", (m, a, t) -> null));
    return List.copyOf(r);
  }

  private static Rule abs(String regex, Resolver resolver) {
    return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), true, resolver);
  }

  private static Rule rel(String regex, Resolver resolver) {
    return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), false, resolver);
  }

  private static int num(MatchResult m, int group) {
    return Integer.parseInt(m.group(group));
  }

  private static String lower(MatchResult m, int group) {
    return m.group(group).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
  }

  private static String upper(MatchResult m, int group) {
    return m.group(group).toUpperCase(Locale.ROOT);
  }

  private static int month(String name) {
    return DateKeys.monthNumber(name);
  }

  private static DateRange day(int year, int month, int dayOfMonth) {
    try {
      return DateRange.day(LocalDate.of(year, month, dayOfMonth));
    } catch (DateTimeException e) {
      return null;
    }
  }

  /**
   * "last X" is the latest X strictly before the anchor, "next X" the first strictly after it,
   * "this X" the X of the anchor's Monday-to-Sunday week; a bare or "on" weekday follows the tense
   * (future: first after the anchor; past or unknown: latest before it).
   */
  private static LocalDate weekday(String modifier, DayOfWeek dow, LocalDate a, Tense t) {
    String mod = modifier == null ? "" : modifier.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    return switch (mod) {
      case "last", "this past", "past" -> CalendarSpans.previous(a, dow);
      case "next", "this coming", "coming" -> CalendarSpans.next(a, dow);
      case "this" -> CalendarSpans.inWeek(a, dow);
      default -> t == Tense.FUTURE ? CalendarSpans.next(a, dow) : CalendarSpans.previous(a, dow);
    };
  }

  /**
   * N days ago is a day; N weeks ago is the day 7N days back; N months ago is that calendar month;
   * N years ago that calendar year. Vague counts ("a few") widen to the range they allow.
   */
  private static DateRange ago(String count, String unit, LocalDate a) {
    Quantity q = Quantity.parse(count);
    return switch (unit) {
      case "day" -> new DateRange(a.minusDays(q.high()), a.minusDays(q.low()));
      case "week" -> new DateRange(a.minusWeeks(q.high()), a.minusWeeks(q.low()));
      case "month" -> new DateRange(a.minusMonths(q.high()).withDayOfMonth(1),
          DateRange.monthOf(a.minusMonths(q.low())).end());
      default -> new DateRange(LocalDate.of(a.getYear() - q.high(), 1, 1), LocalDate.of(a.getYear() - q.low(), 12, 31));
    };
  }

  private static DateRange ahead(String count, String unit, LocalDate a) {
    Quantity q = Quantity.parse(count);
    return switch (unit) {
      case "day" -> new DateRange(a.plusDays(q.low()), a.plusDays(q.high()));
      case "week" -> new DateRange(a.plusWeeks(q.low()), a.plusWeeks(q.high()));
      case "month" -> new DateRange(a.plusMonths(q.low()).withDayOfMonth(1),
          DateRange.monthOf(a.plusMonths(q.high())).end());
      default -> new DateRange(LocalDate.of(a.getYear() + q.low(), 1, 1), LocalDate.of(a.getYear() + q.high(), 12, 31));
    };
  }

  private static DateRange period(String modifier, String unit, LocalDate a) {
    int shift = switch (modifier) {
      case "last", "past", "this past" -> -1;
      case "next", "coming", "this coming" -> 1;
      default -> 0;
    };
    return switch (unit) {
      case "week" -> CalendarSpans.week(a.plusWeeks(shift));
      case "month" -> DateRange.monthOf(a.plusMonths(shift));
      default -> CalendarSpans.year(a.getYear() + shift);
    };
  }

  /**
   * "last/past weekend" is the weekend of the previous Monday-to-Sunday week (said on a weekday,
   * the weekend just gone); "this weekend" and "the coming weekend" are the weekend of the anchor's
   * week; "next weekend" is the weekend of the following week.
   */
  private static DateRange weekend(String modifier, LocalDate a) {
    return switch (modifier) {
      case "last", "past", "this past" -> CalendarSpans.previousWeekend(a);
      case "next" -> CalendarSpans.weekendOfWeek(a.plusWeeks(1));
      default -> CalendarSpans.weekendOfWeek(a);
    };
  }

  private static DateRange earlier(String unit, LocalDate a) {
    LocalDate first = switch (unit) {
      case "week" -> CalendarSpans.week(a).start();
      case "month" -> a.withDayOfMonth(1);
      default -> a.withDayOfYear(1);
    };
    return new DateRange(first, a.equals(first) ? a : a.minusDays(1));
  }

  private static DateRange later(String unit, LocalDate a) {
    LocalDate last = switch (unit) {
      case "week" -> CalendarSpans.week(a).end();
      case "month" -> DateRange.monthOf(a).end();
      default -> LocalDate.of(a.getYear(), 12, 31);
    };
    return new DateRange(a.equals(last) ? a : a.plusDays(1), last);
  }

  /**
   * "last May" is the latest May that began before the anchor's month; "next May" the first May
   * after it; "this May" May of the anchor's year; "in/since/by/early/late May" follow the tense.
   */
  private static DateRange namedMonth(String modifier, int month, LocalDate a, Tense t) {
    int year = a.getYear();
    int current = a.getMonthValue();
    return switch (modifier) {
      case "last", "this past" -> CalendarSpans.month(month < current ? year : year - 1, month);
      case "next" -> CalendarSpans.month(month > current ? year : year + 1, month);
      case "this" -> CalendarSpans.month(year, month);
      default -> CalendarSpans.monthNearest(a, month, t);
    };
  }

  private static DateRange monthDay(int month, int dayOfMonth, LocalDate a, Tense t) {
    try {
      return DateRange.day(CalendarSpans.dayNearest(a, month, dayOfMonth, t));
    } catch (DateTimeException e) {
      return null;
    }
  }

  private static DateRange season(String modifier, String name, LocalDate a, Tense t) {
    return switch (modifier) {
      case "last", "this past" -> CalendarSpans.lastSeason(name, a);
      case "next", "this coming" -> CalendarSpans.nextSeason(name, a);
      case "this" -> CalendarSpans.thisSeason(name, a);
      default -> {
        DateRange current = CalendarSpans.thisSeason(name, a);
        if (current.contains(a)) {
          yield current;
        }
        yield t == Tense.FUTURE ? CalendarSpans.nextSeason(name, a) : CalendarSpans.lastSeason(name, a);
      }
    };
  }
}
