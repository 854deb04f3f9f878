package dev.lychee.api;

import java.util.List;
import java.util.Objects;

/**
 * One exchange: a user turn and the replies up to the next user turn (or, for oversized input, a
 * piece of one), with its embedding. Segmenters work on exchanges, not on single turns.
 *
 * @param namespace the namespace
 * @param session the session
 * @param turns the turns in order; at least one
 * @param text the text the segmenter sees, one {@code "<role>: <content>"} line per non-empty turn
 * @param tokens the estimated token count of {@code text} (at least 1)
 * @param vector the unit-length embedding of the exchange; the array is owned by the exchange and
 *     must not be modified
 * @param forceFinalize true for a fragment of an oversized turn, which must form a segment of its
 *     own
 */
public record Exchange(
    String namespace,
    String session,
    List<RawTurn> turns,
    String text,
    int tokens,
    float[] vector,
    boolean forceFinalize) {

  public Exchange {
    Checks.nonBlank(namespace, "namespace");
    Checks.nonBlank(session, "session");
    turns = List.copyOf(turns);
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("an exchange needs at least one turn");
    }
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(vector, "vector");
    if (tokens < 1) {
      throw new IllegalArgumentException("tokens must be >= 1: " + tokens);
    }
  }

  /** Absolute index of the first turn. */
  public int firstIndex() {
    return turns.get(0).index();
  }

  /** Absolute index of the last turn. */
  public int lastIndex() {
    return turns.get(turns.size() - 1).index();
  }
}
