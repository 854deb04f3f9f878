package dev.lychee.server.api;

import dev.lychee.api.RawTurn;
import java.time.LocalDateTime;

/** A stored raw turn. */
public record TurnView(int index, String role, String speaker, String text, LocalDateTime time) {
  public static TurnView of(RawTurn t) {
    return new TurnView(t.index(), t.role().wireName(), t.speaker(), t.text(), t.time());
  }
}
