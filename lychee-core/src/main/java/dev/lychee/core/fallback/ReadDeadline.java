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
    return under(outer == null || mine - outer < 0 ? mine : outer, body);
  }

  /** Runs {@code body} with {@code deadline} as the thread's deadline, then puts the thread's own back. */
  private static <T> T under(long deadline, Supplier<T> body) {
    Long outer = DEADLINE_NANOS.get();
    DEADLINE_NANOS.set(deadline);
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

  /**
   * {@code body} bound to the deadline of the read running on the calling thread now: run on any
   * thread, it sees that deadline (as its only one) and leaves the thread's own as it was; outside
   * any scope, {@code body} itself. Why: a read hands work to other threads (the recall pipeline's
   * early-channel thread makes the plan, whose model call must still give up at the read's
   * deadline, round twenty-two), and the deadline is kept per thread.
   */
  public static <T> Supplier<T> carried(Supplier<T> body) {
    Long mine = DEADLINE_NANOS.get();
    if (mine == null) {
      return body;
    }
    return () -> under(mine, body);
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
