package dev.lychee.server.api;

import dev.lychee.api.EvidenceNode;
import java.util.List;

/** An evidence node: kind, key and the records it links. */
public record NodeView(String id, String kind, String key, String label, List<String> recordIds, List<String> sessions) {
  public static NodeView of(EvidenceNode n) {
    return new NodeView(n.id(), n.kind().wireName(), n.key(), n.label(), n.recordIds(), n.sessions());
  }
}
