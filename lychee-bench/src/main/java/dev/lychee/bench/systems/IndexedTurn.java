package dev.lychee.bench.systems;

import dev.lychee.api.TurnRef;

/** A turn as the baselines index it: its reference and the text they search and show. */
record IndexedTurn(TurnRef ref, String text) {
  static java.util.List<IndexedTurn> of(java.util.List<EvalSession> sessions) {
    java.util.List<IndexedTurn> out = new java.util.ArrayList<>();
    for (EvalSession s : sessions) {
      for (dev.lychee.api.Turn t : s.turns()) {
        out.add(new IndexedTurn(TurnRef.of(s.id(), t.index()), t.text()));
      }
    }
    return out;
  }

  EvidenceItem toItem() {
    return EvidenceItem.ofTurn(ref, text);
  }
}
