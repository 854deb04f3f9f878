package dev.lychee.bench.locomo;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One LoCoMo session.
 *
 * @param number the 1-based session number
 * @param date the parsed {@code session_N_date_time}
 * @param turns the turns in order
 */
public record LocomoSession(int number, LocalDateTime date, List<LocomoTurn> turns) {
  public LocomoSession {
    Objects.requireNonNull(date, "date");
    turns = List.copyOf(turns);
  }

  /** The Lychee session id, {@code "D<number>"}. */
  public String id() {
    return DiaId.sessionId(number);
  }
}
