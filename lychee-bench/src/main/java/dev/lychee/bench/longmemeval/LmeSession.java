package dev.lychee.bench.longmemeval;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One haystack session.
 *
 * @param id its {@code haystack_session_ids} entry
 * @param date the parsed {@code haystack_dates} entry; null when it does not parse
 * @param turns the turns in order
 */
public record LmeSession(String id, LocalDateTime date, List<LmeTurn> turns) {
  public LmeSession {
    Objects.requireNonNull(id, "id");
    turns = List.copyOf(turns);
  }
}
