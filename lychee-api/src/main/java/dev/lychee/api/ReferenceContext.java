package dev.lychee.api;

import java.util.List;

/**
 * What the encoder may use to resolve references in a segment: the previous segment's
 * disambiguation note and the latest record texts of the same session. It is never a source of
 * new facts.
 *
 * @param note the previous disambiguation note ("" when none)
 * @param recentRecords the most recent distinct record texts of the session, oldest first
 */
public record ReferenceContext(String note, List<String> recentRecords) {

  public static final ReferenceContext EMPTY = new ReferenceContext("", List.of());

  public ReferenceContext {
    note = Checks.orEmpty(note);
    recentRecords = List.copyOf(recentRecords);
  }

  public boolean isEmpty() {
    return note.isBlank() && recentRecords.isEmpty();
  }
}
