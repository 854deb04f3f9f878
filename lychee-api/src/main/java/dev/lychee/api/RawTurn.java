package dev.lychee.api;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A turn as stored: never altered after it is written, the ground truth every record cites.
 *
 * @param namespace the namespace the turn belongs to
 * @param ref session and absolute index
 * @param role the producer
 * @param speaker nullable speaker name
 * @param text the turn's text as given
 * @param time the session date (or the turn's own time); nullable when neither was given
 */
public record RawTurn(
    String namespace, TurnRef ref, Role role, String speaker, String text, LocalDateTime time) {

  public RawTurn {
    Checks.nonBlank(namespace, "namespace");
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(text, "text");
  }

  public String session() {
    return ref.session();
  }

  public int index() {
    return ref.index();
  }

  /** The stable id, {@code episode:<session>:<index>}. */
  public String id() {
    return ref.id();
  }

  /**
   * The text that gets embedded and shown: prefixed with {@code "<speaker>: "} when a speaker is
   * known and the text does not already start with that prefix.
   */
  public String content() {
    if (speaker == null) {
      return text;
    }
    String prefix = speaker + ":";
    if (text.regionMatches(true, 0, prefix, 0, prefix.length())) {
      return text;
    }
    return speaker + ": " + text;
  }
}
