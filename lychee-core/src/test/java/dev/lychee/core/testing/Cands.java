package dev.lychee.core.testing;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.List;

/** Hand-built candidates for stage tests. */
public final class Cands {
  private Cands() {}

  public static Candidate turn(String session, int index, String text, double score) {
    return turn(session, index, text, score, "r1");
  }

  public static Candidate turn(String session, int index, String text, double score, String route) {
    return new Candidate(TurnRef.of(session, index).id(), CandidateKind.RAW_TURN, "ns", text, session,
        List.of(TurnRef.of(session, index)), LocalDateTime.of(2023, 5, 8, 13, 0), null, null, null,
        List.of(), List.of(), score, score, Provenance.of("raw_turn", text, null, route));
  }

  public static Candidate record(String id, String text, double score, String route) {
    return new Candidate(id, CandidateKind.RECORD, "ns", text, "s1", List.of(TurnRef.of("s1", 0)),
        null, null, null, null, List.of(), List.of(), score, score, Provenance.of("record_vector", null, null, route));
  }
}
