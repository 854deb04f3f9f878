package dev.lychee.core.fallback;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The deadline of the read running on the current thread. {@code Lychee.recall}/{@code answer}
 * open a scope; {@link DeadlineChatModel} reads what is left of it. Scopes nest: an inner scope
 * never extends the outer deadline.
 */
public final class ReadDeadline {
  private static final ThreadLocal<Long> DEADLINE_NANOS = new ThreadLocal<>();

  private ReadDeadline() {}

  /** Runs {@code body} with a deadline {@code budget} from now (or the outer one, if earlier). */
  public static <T> T within(Duration budget, Supplier<T> body) {
    Long outer = DEADLINE_NANOS.get();
    long mine = System.nanoTime() + budget.toNanos();
    DEADLINE_NANOS.set(outer == null || mine - outer < 0 ? mine : outer);
    try {
      return body.get();
    } finally {
      if (outer == null) {
        DEADLINE_NANOS.remove();
      } else {
        DEADLINE_NANOS.set(outer);
      }
    }
  }

  /** What is left of the current deadline (zero when passed); empty outside any scope. */
  public static Optional<Duration> remaining() {
    Long d = DEADLINE_NANOS.get();
    if (d == null) {
      return Optional.empty();
    }
    long left = d - System.nanoTime();
    return Optional.of(left <= 0 ? Duration.ZERO : Duration.ofNanos(left));
  }
}
