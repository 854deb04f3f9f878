package dev.lychee.api;

import java.util.List;

/**
 * A closed semantic segment: consecutive turns of one session that one encoder call turns into
 * records.
 *
 * @param namespace the namespace
 * @param session the session
 * @param turns the turns, in order, at least one
 * @param exchanges how many exchanges the segment holds
 * @param tokens the estimated token count of the segment's text
 * @param reason why it closed
 * @param score the boundary score at the close (NaN when no boundary decision closed it)
 * @param probability the boundary probability at the close (1 for capacity closes, NaN when no
 *     decision was made)
 */
public record Segment(
    String namespace,
    String session,
    List<RawTurn> turns,
    int exchanges,
    int tokens,
    CloseReason reason,
    double score,
    double probability) {

  public Segment {
    Checks.nonBlank(namespace, "namespace");
    Checks.nonBlank(session, "session");
    turns = List.copyOf(turns);
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("a segment needs at least one turn");
    }
    java.util.Objects.requireNonNull(reason, "reason");
  }

  /** Absolute index of the first turn. */
  public int firstIndex() {
    return turns.get(0).index();
  }

  /** Absolute index of the last turn. */
  public int lastIndex() {
    return turns.get(turns.size() - 1).index();
  }

  /** Stable id, {@code <session>:<first>-<last>}; unique within a namespace. */
  public String id() {
    return session + ":" + firstIndex() + "-" + lastIndex();
  }
}
