package dev.lychee.bench.systems;

import dev.lychee.api.Turn;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One session handed to a system under evaluation.
 *
 * @param id the session id every cited {@link dev.lychee.api.TurnRef} uses
 * @param date the session date; nullable when the dataset has none
 * @param turns the turns in order, each with an explicit absolute index
 */
public record EvalSession(String id, LocalDateTime date, List<Turn> turns) {
  public EvalSession {
    Objects.requireNonNull(id, "id");
    turns = List.copyOf(turns);
    for (Turn t : turns) {
      if (t.index() < 0) {
        throw new IllegalArgumentException("evaluation turns carry explicit indices");
      }
    }
  }
}
