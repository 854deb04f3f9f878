package dev.lychee.core.ingest;

import dev.lychee.api.Encoding;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.Encoder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.core.metrics.LycheeMetrics;
import dev.lychee.core.organize.EvidenceOrganizer;
import dev.lychee.core.vector.Vectors;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns one closed segment into committed records and evidence nodes: one encoder call, node
 * derivation, one embedding batch for records and nodes, vectors, then one atomic commit.
 *
 * <p>Never throws: a failure at any of these steps is returned as the attempt's outcome, the
 * vectors written for records and nodes that did not exist before are removed again (no orphan
 * vectors), and the caller leaves the segment PENDING with the error.
 */
final class SegmentCommitter {
  private final RecordStore store;
  private final VectorIndex vectors;
  private final Embedder embedder;
  private final Encoder encoder;
  private final EvidenceOrganizer organizer;
  private final ReferenceContextTracker references;
  private final boolean reembedNodes;
  private final Set<NodeKind> derivedNodeKinds;
  private final LycheeMetrics metrics;
  private final ForegroundActivity foreground;

  /**
   * The result of one attempt.
   *
   * @param result what was committed (empty on failure)
   * @param failure why the attempt failed, or null
   * @param lost the claim was lost before the commit: another owner encodes the segment
   */
  record Outcome(IngestResult result, RuntimeException failure, boolean lost) {
    boolean ok() {
      return failure == null;
    }
  }

  SegmentCommitter(RecordStore store, VectorIndex vectors, Embedder embedder, Encoder encoder,
      EvidenceOrganizer organizer, ReferenceContextTracker references, boolean reembedNodes,
      Set<NodeKind> derivedNodeKinds, LycheeMetrics metrics, ForegroundActivity foreground) {
    this.foreground = foreground;
    this.reembedNodes = reembedNodes;
    this.derivedNodeKinds = derivedNodeKinds;
    this.store = store;
    this.vectors = vectors;
    this.embedder = embedder;
    this.encoder = encoder;
    this.organizer = organizer;
    this.references = references;
    this.metrics = metrics;
  }

  /** The encoder's name, for error texts. */
  String encoderName() {
    return encoder.name();
  }

  /** Writes a segment's records and nodes; false when the right to do so was lost. */
  interface Commit {
    boolean commit(List<MemoryRecord> records, List<EvidenceNode> nodes);
  }

  /**
   * Encodes a stored segment and commits its records and nodes through {@code commit}, once.
   *
   * @param priority how the record and node vectors are asked for: {@code BACKGROUND} from the
   *     background encoder, so the embedder may run an {@code append}'s turns first; such an
   *     attempt also waits (bounded) for appends in progress before each of its steps
   */
  Outcome attempt(Segment segment, Commit commit, EmbeddingPriority priority) {
    boolean background = priority == EmbeddingPriority.BACKGROUND;
    String ns = segment.namespace();
    Encoding encoding;
    try {
      stepAside(background);
      ReferenceContext context = references.current(ns, segment.session());
      encoding = encoder.encode(segment, context);
    } catch (RuntimeException e) {
      return new Outcome(IngestResult.EMPTY, e, false);
    }
    metrics.tokens("encoder", encoding.usage());
    List<MemoryRecord> records = encoding.records();
    Written written = new Written();
    try {
      stepAside(background);
      List<EvidenceNode> nodes = organizer.organize(segment, records);
      writeVectors(ns, records, nodes, written, priority);
      stepAside(background);
      if (!commit.commit(records, nodes)) {
        removeOrphans(ns, written, null);
        return new Outcome(IngestResult.EMPTY, null, true);
      }
      references.update(ns, segment.session(), encoding);
      return new Outcome(new IngestResult(0, 0, 0, 1, records.size(), nodes.size(), encoding.usage(),
          encoding.inputTokens(), List.of()), null, false);
    } catch (RuntimeException e) {
      removeOrphans(ns, written, e);
      return new Outcome(new IngestResult(0, 0, 0, 0, 0, 0, encoding.usage(), encoding.inputTokens(), List.of()), e, false);
    }
  }

  /** In the background, lets appends in progress finish first (bounded; see ForegroundActivity). */
  private void stepAside(boolean background) {
    if (background) {
      foreground.awaitQuiet();
    }
  }

  /** Forgets the session's disambiguation note and recent record texts. */
  void forgetContext(String namespace, String session) {
    references.reset(namespace, session);
  }

  /** Ids whose vectors this attempt wrote and that had no stored record or node before. */
  private static final class Written {
    final List<String> records = new ArrayList<>();
    final Map<NodeKind, List<String>> nodes = new EnumMap<>(NodeKind.class);
  }

  private void removeOrphans(String ns, Written written, RuntimeException cause) {
    try {
      if (!written.records.isEmpty()) {
        Set<String> kept = new HashSet<>();
        store.records(ns, written.records).forEach(r -> kept.add(r.id()));
        vectors.remove(ns, VectorIndex.RECORDS, written.records.stream().filter(id -> !kept.contains(id)).toList());
      }
      written.nodes.forEach((kind, ids) -> vectors.remove(ns, VectorIndex.nodes(kind), ids));
    } catch (RuntimeException e) {
      if (cause != null) {
        cause.addSuppressed(e);
      }
    }
  }

  private void writeVectors(String ns, List<MemoryRecord> records, List<EvidenceNode> nodes, Written written,
      EmbeddingPriority priority) {
    List<String> texts = new ArrayList<>(records.size() + nodes.size());
    records.forEach(r -> texts.add(r.normalizedText()));
    // temporal nodes are reached through their keys, never by vector (docs/defaults.md §4.5)
    List<EvidenceNode> embedded = nodes.stream().filter(n -> n.kind() != NodeKind.TEMPORAL).toList();
    Set<String> stored = new HashSet<>();
    if (!embedded.isEmpty()) {
      store.nodes(ns, embedded.stream().map(EvidenceNode::id).toList()).forEach(n -> stored.add(n.id()));
    }
    if (!reembedNodes) {
      embedded = embedded.stream().filter(n -> !stored.contains(n.id())).toList();
    }
    // derived nodes take the vectors of their records in this batch; the rest are embedded
    Set<String> batchRecords = records.stream().map(MemoryRecord::id).collect(Collectors.toSet());
    Map<Boolean, List<EvidenceNode>> split = embedded.stream().collect(Collectors.partitioningBy(
        n -> derivedNodeKinds.contains(n.kind()) && n.recordIds().stream().anyMatch(batchRecords::contains)));
    List<EvidenceNode> derived = split.get(true);
    embedded = split.get(false);
    embedded.forEach(n -> texts.add(n.searchText().isBlank() ? n.key() : n.searchText()));
    if (texts.isEmpty()) {
      return;
    }
    // a node text can equal another's or a record's; each distinct text is embedded once
    List<float[]> vs = DistinctTexts.embed(embedder, texts, priority);
    Map<String, float[]> recordVectors = new LinkedHashMap<>();
    for (int i = 0; i < records.size(); i++) {
      recordVectors.put(records.get(i).id(), vs.get(i));
    }
    // one write for records and every node kind: a store that commits per write commits once
    Map<String, Map<String, float[]>> byIndex = new LinkedHashMap<>();
    if (!recordVectors.isEmpty()) {
      written.records.addAll(recordVectors.keySet());
      byIndex.put(VectorIndex.RECORDS, recordVectors);
    }
    Map<NodeKind, Map<String, float[]>> byKind = new EnumMap<>(NodeKind.class);
    for (int i = 0; i < embedded.size(); i++) {
      EvidenceNode n = embedded.get(i);
      byKind.computeIfAbsent(n.kind(), k -> new LinkedHashMap<>()).put(n.id(), vs.get(records.size() + i));
    }
    for (EvidenceNode n : derived) {
      byKind.computeIfAbsent(n.kind(), k -> new LinkedHashMap<>()).put(n.id(), meanOfRecords(n, recordVectors));
    }
    byKind.forEach((kind, m) -> {
      m.keySet().stream().filter(id -> !stored.contains(id))
          .forEach(id -> written.nodes.computeIfAbsent(kind, k -> new ArrayList<>()).add(id));
      byIndex.put(VectorIndex.nodes(kind), m);
    });
    if (!byIndex.isEmpty()) {
      vectors.upsertAll(ns, byIndex);
    }
  }

  /** The normalised mean of the vectors of the node's records in this batch. */
  private static float[] meanOfRecords(EvidenceNode n, Map<String, float[]> recordVectors) {
    float[] sum = null;
    for (String id : n.recordIds()) {
      float[] v = recordVectors.get(id);
      if (v == null) {
        continue;
      }
      if (sum == null) {
        sum = new float[v.length];
      }
      for (int d = 0; d < v.length; d++) {
        sum[d] += v[d];
      }
    }
    return Vectors.unit(sum);
  }
}
