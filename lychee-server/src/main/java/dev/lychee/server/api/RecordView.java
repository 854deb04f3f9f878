package dev.lychee.server.api;

import dev.lychee.api.MemoryRecord;
import java.time.LocalDateTime;
import java.util.List;

/** A memory record with its metadata and the turns it cites. */
public record RecordView(
    String id, String type, String text, List<String> entities, List<String> tags, String session,
    List<EvidenceView.TurnRefView> evidence, LocalDateTime createdAt, String temporalRef) {
  public static RecordView of(MemoryRecord r) {
    return new RecordView(r.id(), r.type().wireName(), r.text(), r.entities(), r.tags(), r.session(),
        r.evidence().stream().map(t -> new EvidenceView.TurnRefView(t.session(), t.index())).toList(),
        r.createdAt(), r.temporal().tRef());
  }
}
