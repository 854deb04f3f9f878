package dev.lychee.api;

import java.time.LocalDate;

/**
 * An inclusive range of days; either end may be open (null), but not both.
 *
 * @param start first day, inclusive; nullable (open start)
 * @param end last day, inclusive; nullable (open end)
 */
public record DateRange(LocalDate start, LocalDate end) {

  public DateRange {
    if (start == null && end == null) {
      throw new IllegalArgumentException("a date range needs a start, an end or both");
    }
    if (start != null && end != null && end.isBefore(start)) {
      throw new IllegalArgumentException("date range ends before it starts: " + start + " > " + end);
    }
  }

  /** The range holding exactly one day. */
  public static DateRange day(LocalDate day) {
    return new DateRange(day, day);
  }

  /** The whole calendar month of {@code anyDay}. */
  public static DateRange monthOf(LocalDate anyDay) {
    LocalDate first = anyDay.withDayOfMonth(1);
    return new DateRange(first, first.plusMonths(1).minusDays(1));
  }

  /** True when the two ranges share at least one day (open ends reach to infinity). */
  public boolean overlaps(DateRange other) {
    boolean endsBeforeOtherStarts = end != null && other.start != null && end.isBefore(other.start);
    boolean startsAfterOtherEnds = start != null && other.end != null && start.isAfter(other.end);
    return !endsBeforeOtherStarts && !startsAfterOtherEnds;
  }

  /** True when {@code day} lies inside the range. */
  public boolean contains(LocalDate day) {
    return (start == null || !day.isBefore(start)) && (end == null || !day.isAfter(end));
  }

  /** The smallest range covering both (an open end stays open). */
  public DateRange union(DateRange other) {
    LocalDate s = start == null || other.start == null ? null : (start.isBefore(other.start) ? start : other.start);
    LocalDate e = end == null || other.end == null ? null : (end.isAfter(other.end) ? end : other.end);
    return new DateRange(s, e);
  }

  @Override
  public String toString() {
    if (start != null && start.equals(end)) {
      return start.toString();
    }
    return (start == null ? ".." : start.toString()) + "/" + (end == null ? ".." : end.toString());
  }
}
