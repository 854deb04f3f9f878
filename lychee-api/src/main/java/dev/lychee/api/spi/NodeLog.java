package dev.lychee.api.spi;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads of the evidence nodes a namespace holds (written by {@link SegmentLog#commitEncoding}). */
public interface NodeLog {

  /** The nodes with these ids, in the order of {@code ids}; unknown ids are skipped, repeats come once. */
  List<EvidenceNode> nodes(String namespace, Collection<String> ids);

  /**
   * The record ids of the nodes with these ids, each node's {@link EvidenceNode#recordIds()} as
   * {@link #nodes(String, Collection)} gives them, keyed in the order of {@code ids}; unknown ids are
   * skipped, repeats come once. Recall follows a node hit to its records and needs nothing else of
   * the node; a durable store can answer without decoding the rest of each node, whose sessions and
   * turn ranges grow with the namespace. The default reads the whole nodes.
   */
  default Map<String, List<String>> nodeRecordIds(String namespace, Collection<String> ids) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (EvidenceNode n : nodes(namespace, ids)) {
      out.put(n.id(), n.recordIds());
    }
    return out;
  }

  /** All nodes of one kind, ordered by key. */
  List<EvidenceNode> nodes(String namespace, NodeKind kind);
}
