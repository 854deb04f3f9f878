package dev.lychee.core.recall;

import dev.lychee.api.TurnRef;
import java.util.Optional;

/** Reads raw-turn ids of the form {@code episode:<session>:<index>}. */
public final class TurnIds {
  private static final String PREFIX = "episode:";

  private TurnIds() {}

  /** The turn a raw-turn id names, or empty when the id has another shape. */
  public static Optional<TurnRef> parse(String id) {
    if (id == null || !id.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int colon = id.lastIndexOf(':');
    if (colon <= PREFIX.length()) {
      return Optional.empty();
    }
    try {
      int index = Integer.parseInt(id.substring(colon + 1));
      String session = id.substring(PREFIX.length(), colon);
      return index < 0 || session.isBlank() ? Optional.empty() : Optional.of(TurnRef.of(session, index));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
