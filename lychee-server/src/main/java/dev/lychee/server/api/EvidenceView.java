package dev.lychee.server.api;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.List;

/** One evidence item on the wire, with its provenance. */
public record EvidenceView(
    int rank, double score, String id, String kind, String text, String session, List<TurnRefView> turns,
    LocalDateTime mentionedAt, String memoryType, List<String> entities, List<String> channels,
    List<String> queries, List<String> nodes, List<String> routes, int tokens) {

  /** A turn reference: session and absolute index. */
  public record TurnRefView(String session, int index) {
    static TurnRefView of(TurnRef r) {
      return new TurnRefView(r.session(), r.index());
    }
  }

  public static EvidenceView of(Evidence e, int tokens) {
    Candidate c = e.candidate();
    return new EvidenceView(e.rank(), e.score(), c.id(), c.kind().name().toLowerCase(java.util.Locale.ROOT),
        c.text(), c.session(), c.turns().stream().map(TurnRefView::of).toList(), c.mentionedAt(),
        c.memoryType() == null ? null : c.memoryType().wireName(), c.entities(), c.provenance().channels(),
        c.provenance().queries(), c.provenance().nodes(), c.provenance().routes(), tokens);
  }
}
