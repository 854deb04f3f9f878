package dev.lychee.core.ingest;

import dev.lychee.api.Encoding;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.IngestResult;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.core.organize.EvidenceOrganizer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one closed segment into committed records and evidence nodes: one encoder call, node
 * derivation, one embedding batch for records and nodes, vectors, then one atomic commit.
 * Failures leave the segment PENDING with the error kept, and are reported in the result.
 */
final class SegmentCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentCommitter.class);

  private final RecordStore store;
  private final VectorIndex vectors;
  private final Embedder embedder;
  private final Encoder encoder;
  private final EvidenceOrganizer organizer;
  private final ReferenceContextTracker references;
  private final boolean reembedNodes;

  SegmentCommitter(RecordStore store, VectorIndex vectors, Embedder embedder, Encoder encoder,
      EvidenceOrganizer organizer, ReferenceContextTracker references, boolean reembedNodes) {
    this.reembedNodes = reembedNodes;
    this.store = store;
    this.vectors = vectors;
    this.embedder = embedder;
    this.encoder = encoder;
    this.organizer = organizer;
    this.references = references;
  }

  /** Stores the segment as PENDING, then encodes and commits it. */
  IngestResult closeAndEncode(Segment segment) {
    store.putSegment(segment, SegmentState.PENDING);
    return encode(segment).plus(new IngestResult(0, 1, 0, 0, 0, TokenUsage.ZERO, 0, List.of()));
  }

  /** Encodes a stored segment and commits its records and nodes. Never throws for encoder errors. */
  IngestResult encode(Segment segment) {
    String ns = segment.namespace();
    ReferenceContext context = references.current(ns, segment.session());
    Encoding encoding;
    try {
      encoding = encoder.encode(segment, context);
    } catch (RuntimeException e) {
      String error = encoder.name() + " encoder failed on segment " + segment.id() + ": " + e.getMessage();
      LOG.warn(error, e);
      store.setSegmentState(ns, segment.id(), SegmentState.PENDING, error);
      return new IngestResult(0, 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of(error));
    }
    List<MemoryRecord> records = encoding.records();
    List<EvidenceNode> nodes = organizer.organize(segment, records);
    writeVectors(ns, records, nodes);
    store.commitEncoding(ns, segment.id(), records, nodes);
    references.update(ns, segment.session(), encoding);
    return new IngestResult(0, 0, 1, records.size(), nodes.size(), encoding.usage(), encoding.inputTokens(), List.of());
  }

  /** Forgets the session's disambiguation note and recent record texts. */
  void forgetContext(String namespace, String session) {
    references.reset(namespace, session);
  }

  private void writeVectors(String ns, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    List<String> texts = new ArrayList<>(records.size() + nodes.size());
    records.forEach(r -> texts.add(r.normalizedText()));
    // temporal nodes are reached through their keys, never by vector (docs/defaults.md §4.5)
    List<EvidenceNode> embedded = nodes.stream().filter(n -> n.kind() != NodeKind.TEMPORAL).toList();
    if (!reembedNodes && !embedded.isEmpty()) {
      Set<String> stored = new HashSet<>();
      store.nodes(ns, embedded.stream().map(EvidenceNode::id).toList()).forEach(n -> stored.add(n.id()));
      embedded = embedded.stream().filter(n -> !stored.contains(n.id())).toList();
    }
    embedded.forEach(n -> texts.add(n.searchText().isBlank() ? n.key() : n.searchText()));
    if (texts.isEmpty()) {
      return;
    }
    List<float[]> vs = embedder.embedDocuments(texts);
    Map<String, float[]> recordVectors = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      recordVectors.put(records.get(i).id(), vs.get(i));
    }
    if (!recordVectors.isEmpty()) {
      vectors.upsert(ns, VectorIndex.RECORDS, recordVectors);
    }
    Map<NodeKind, Map<String, float[]>> byKind = new EnumMap<>(NodeKind.class);
    for (int i = 0; i < embedded.size(); i++) {
      EvidenceNode n = embedded.get(i);
      byKind.computeIfAbsent(n.kind(), k -> new LinkedHashMap<>()).put(n.id(), vs.get(records.size() + i));
    }
    byKind.forEach((kind, m) -> vectors.upsert(ns, VectorIndex.nodes(kind), m));
  }
}
