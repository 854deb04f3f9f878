package dev.lychee.api;

import java.util.List;

/**
 * An append gave an explicit turn index that is already stored with a different text (or speaker
 * or role). Stored turns are never altered, so the call is refused as a whole before anything of it
 * is stored; re-sending a turn exactly as stored stays an idempotent no-op.
 */
public class TurnConflictException extends LycheeException {
  private final List<TurnRef> conflicts;

  public TurnConflictException(String message, List<TurnRef> conflicts) {
    super(message);
    this.conflicts = List.copyOf(conflicts);
  }

  /** The refs whose stored turn differs from the one sent. */
  public List<TurnRef> conflicts() {
    return conflicts;
  }
}
