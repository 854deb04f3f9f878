package dev.lychee.api.spi;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import java.util.Collection;
import java.util.List;

/** Reads of the evidence nodes a namespace holds (written by {@link SegmentLog#commitEncoding}). */
public interface NodeLog {

  /** The nodes with these ids, in the order of {@code ids}; unknown ids are skipped, repeats come once. */
  List<EvidenceNode> nodes(String namespace, Collection<String> ids);

  /** All nodes of one kind, ordered by key. */
  List<EvidenceNode> nodes(String namespace, NodeKind kind);
}
