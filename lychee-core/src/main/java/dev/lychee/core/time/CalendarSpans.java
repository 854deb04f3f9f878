package dev.lychee.core.time;

import dev.lychee.api.DateRange;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.temporal.TemporalAdjusters;

/** Calendar arithmetic behind the date rules: weeks run Monday to Sunday, weekends are Saturday-Sunday. */
final class CalendarSpans {
  private CalendarSpans() {}

  static DateRange week(LocalDate anyDay) {
    LocalDate monday = anyDay.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    return new DateRange(monday, monday.plusDays(6));
  }

  static DateRange month(int year, int month) {
    return DateRange.monthOf(LocalDate.of(year, month, 1));
  }

  static DateRange year(int year) {
    return new DateRange(LocalDate.of(year, 1, 1), LocalDate.of(year, 12, 31));
  }

  /** The weekend (Saturday and Sunday) of the Monday-to-Sunday week holding {@code anyDay}. */
  static DateRange weekendOfWeek(LocalDate anyDay) {
    LocalDate saturday = anyDay.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusDays(5);
    return new DateRange(saturday, saturday.plusDays(1));
  }

  /**
   * The most recent weekend that ended before {@code day}'s week began, i.e. the weekend of the
   * previous week: said on Wednesday 10 May 2023, "last weekend" is 6-7 May.
   */
  static DateRange previousWeekend(LocalDate day) {
    return weekendOfWeek(day.minusWeeks(1));
  }

  /**
   * The weekend a speaker means by "the weekend" or "over the weekend": in a past sentence the
   * latest weekend that has started by {@code day}; otherwise the next one that has not ended.
   */
  static DateRange nearestWeekend(LocalDate day, Tense tense) {
    DateRange current = weekendOfWeek(day);
    if (tense == Tense.FUTURE) {
      return day.isAfter(current.end()) ? weekendOfWeek(day.plusWeeks(1)) : current;
    }
    return day.isBefore(current.start()) ? previousWeekend(day) : current;
  }

  /** Occurrence of a weekday strictly before {@code day}. */
  static LocalDate previous(LocalDate day, DayOfWeek dow) {
    return day.with(TemporalAdjusters.previous(dow));
  }

  /** Occurrence of a weekday strictly after {@code day}. */
  static LocalDate next(LocalDate day, DayOfWeek dow) {
    return day.with(TemporalAdjusters.next(dow));
  }

  /** The given weekday inside the Monday-to-Sunday week of {@code day}. */
  static LocalDate inWeek(LocalDate day, DayOfWeek dow) {
    return day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusDays(dow.getValue() - 1L);
  }

  /**
   * A month named without a year: in a future sentence the next occurrence from the anchor's month
   * on (the anchor's own month counts); otherwise the latest occurrence up to the anchor's month.
   */
  static DateRange monthNearest(LocalDate anchor, int month, Tense tense) {
    int year = anchor.getYear();
    if (tense == Tense.FUTURE) {
      return month(month < anchor.getMonthValue() ? year + 1 : year, month);
    }
    return month(month > anchor.getMonthValue() ? year - 1 : year, month);
  }

  /** A month-and-day without a year, chosen as {@link #monthNearest} chooses months (day granularity). */
  static LocalDate dayNearest(LocalDate anchor, int month, int dayOfMonth, Tense tense) {
    LocalDate sameYear = LocalDate.of(anchor.getYear(), month, dayOfMonth);
    if (tense == Tense.FUTURE) {
      return sameYear.isBefore(anchor) ? sameYear.plusYears(1) : sameYear;
    }
    return sameYear.isAfter(anchor) ? sameYear.minusYears(1) : sameYear;
  }

  /**
   * A season of a given year; winter starts in December of that year and ends in February of the
   * next (meteorological seasons, northern hemisphere).
   */
  static DateRange season(String name, int year) {
    return switch (name) {
      case "spring" -> new DateRange(LocalDate.of(year, Month.MARCH, 1), LocalDate.of(year, Month.MAY, 31));
      case "summer" -> new DateRange(LocalDate.of(year, Month.JUNE, 1), LocalDate.of(year, Month.AUGUST, 31));
      case "fall", "autumn" -> new DateRange(LocalDate.of(year, Month.SEPTEMBER, 1),
          LocalDate.of(year, Month.NOVEMBER, 30));
      case "winter" -> new DateRange(LocalDate.of(year, Month.DECEMBER, 1),
          LocalDate.of(year + 1, Month.MARCH, 1).minusDays(1));
      default -> throw new IllegalArgumentException("not a season: " + name);
    };
  }

  /** The latest season of that name that has fully ended before {@code day}. */
  static DateRange lastSeason(String name, LocalDate day) {
    for (int y = day.getYear(); ; y--) {
      DateRange s = season(name, y);
      if (s.end().isBefore(day)) {
        return s;
      }
    }
  }

  /** The earliest season of that name that starts after {@code day}. */
  static DateRange nextSeason(String name, LocalDate day) {
    for (int y = day.getYear() - 1; ; y++) {
      DateRange s = season(name, y);
      if (s.start().isAfter(day)) {
        return s;
      }
    }
  }

  /** The season of that name containing {@code day}, or else the one of the anchor's year. */
  static DateRange thisSeason(String name, LocalDate day) {
    DateRange previousWinter = season(name, day.getYear() - 1);
    if (previousWinter.contains(day)) {
      return previousWinter;
    }
    return season(name, day.getYear());
  }
}
