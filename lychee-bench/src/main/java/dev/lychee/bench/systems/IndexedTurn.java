package dev.lychee.bench.systems;

import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;

/**
 * A turn as the baselines index it: its reference, the text they search and show, and the
 * session date its date line shows (nullable).
 */
record IndexedTurn(TurnRef ref, String text, LocalDateTime said) {
  IndexedTurn(TurnRef ref, String text) {
    this(ref, text, null);
  }

  static java.util.List<IndexedTurn> of(java.util.List<EvalSession> sessions) {
    java.util.List<IndexedTurn> out = new java.util.ArrayList<>();
    for (EvalSession s : sessions) {
      for (dev.lychee.api.Turn t : s.turns()) {
        out.add(new IndexedTurn(TurnRef.of(s.id(), t.index()), t.text(), s.date()));
      }
    }
    return out;
  }

  EvidenceItem toItem() {
    return EvidenceItem.ofTurn(ref, text, said);
  }
}
