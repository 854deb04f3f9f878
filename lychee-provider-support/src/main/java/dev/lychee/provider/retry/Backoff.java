package dev.lychee.provider.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * How long to wait before a retry: the server's {@code Retry-After} when it sent one, otherwise
 * an exponential backoff ({@code initial * 2^(attempt-1)}), both capped at {@code max} so that a
 * misbehaving server cannot park a caller for an hour.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final Clock clock;

  /**
   * @param initial the first wait when the server names none; doubles per attempt
   * @param max the cap on any single wait, the server's included
   */
  public Backoff(Duration initial, Duration max, Clock clock) {
    this.initial = positive(initial, "initial backoff");
    this.max = positive(max, "max backoff");
    this.clock = java.util.Objects.requireNonNull(clock, "clock");
  }

  /** Checks a backoff setting: present and positive. */
  public static Duration positive(Duration d, String name) {
    java.util.Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive: " + d);
    }
    return d;
  }

  /**
   * The wait after failed attempt {@code attempt} (1-based).
   *
   * @param retryAfter the raw {@code Retry-After} header, if the response had one
   */
  public Duration waitAfterHeader(int attempt, Optional<String> retryAfter) {
    return waitAfter(attempt, retryAfter.flatMap(v -> parseRetryAfter(v, clock)));
  }

  /** The wait after failed attempt {@code attempt}, given the wait the server asked for, if any. */
  public Duration waitAfter(int attempt, Optional<Duration> serverWait) {
    Duration wait = serverWait.orElseGet(() -> exponential(attempt));
    return wait.compareTo(max) > 0 ? max : wait;
  }

  private Duration exponential(int attempt) {
    int shift = Math.min(Math.max(attempt - 1, 0), 30);
    long nanos = initial.toNanos();
    // saturate instead of overflowing: the cap applies afterwards anyway
    long scaled = nanos > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : nanos << shift;
    return Duration.ofNanos(scaled);
  }

  /**
   * Parses {@code Retry-After}: either delay-seconds ({@code "120"}) or an HTTP date
   * ({@code "Wed, 21 Oct 2015 07:28:00 GMT"}), RFC 9110 section 10.2.3. A date in the past means
   * "retry now". Anything else is ignored (empty), so the exponential backoff applies.
   */
  public static Optional<Duration> parseRetryAfter(String value, Clock clock) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.trim();
    if (v.isEmpty()) {
      return Optional.empty();
    }
    if (v.chars().allMatch(Character::isDigit)) {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    try {
      Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration d = Duration.between(clock.instant(), at);
      return Optional.of(d.isNegative() ? Duration.ZERO : d);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** Sleeps, keeping the interrupt flag if interrupted. */
  public static boolean sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
