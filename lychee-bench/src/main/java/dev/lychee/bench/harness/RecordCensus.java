package dev.lychee.bench.harness;

import dev.lychee.api.Encoding;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.encode.OfflineEncoder;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.core.organize.EvidenceOrganizer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What ingest would store for the segments of a run: every segment goes through an encoder and the
 * evidence organiser in order, with the same per-session reference context ingest carries between
 * segments. Records are counted once per conversation by id (the store merges records with the same
 * text), nodes once per conversation by id (the store merges nodes with the same kind and key), and
 * the sums over conversations are reported.
 *
 * <p>One instance per run; not thread-safe.
 */
public final class RecordCensus {
  private static final int EMPTY_EXAMPLES = 3;

  /**
   * The outcome.
   *
   * @param records distinct records, summed over conversations
   * @param recordsPerType those records per memory type, every type present (zero when unused)
   * @param plans those records tagged {@code plan} (a stated intention, whatever its type)
   * @param nodesPerKind distinct evidence nodes per kind, summed over conversations
   * @param samples records chosen evenly over the run, in ingest order
   * @param segments segments encoded
   * @param emptySegments segments that gave no record (the encoder drops greetings, fillers and
   *     content-free requests, so a segment of only those gives none; its turns stay stored)
   * @param emptyExamples the text of the first few of those, shortened
   */
  public record Result(int records, Map<MemoryType, Integer> recordsPerType, int plans,
      Map<NodeKind, Integer> nodesPerKind, List<MemoryRecord> samples, int segments, int emptySegments,
      List<String> emptyExamples) {
    public Result {
      recordsPerType = Map.copyOf(recordsPerType);
      nodesPerKind = Map.copyOf(nodesPerKind);
      samples = List.copyOf(samples);
      emptyExamples = List.copyOf(emptyExamples);
    }

    /** All nodes of all kinds. */
    public int nodes() {
      return nodesPerKind.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  private final Encoder encoder;
  private final EvidenceOrganizer organizer;
  private final ReferenceContextTracker references;
  private final int sampleCount;
  private final Map<MemoryType, Integer> perType = new EnumMap<>(MemoryType.class);
  private final Map<NodeKind, Integer> perKind = new EnumMap<>(NodeKind.class);
  /** Every distinct record of the run, in ingest order; samples are drawn from it at the end. */
  private final List<MemoryRecord> all = new ArrayList<>();
  private final Map<String, MemoryRecord> conversationRecords = new LinkedHashMap<>();
  private final Set<String> conversationNodes = new LinkedHashSet<>();
  private final List<String> emptyExamples = new ArrayList<>();
  private int segments;
  private int emptySegments;

  /** The embedded offline encoder and the paper's organiser, with default settings; ten samples. */
  public static RecordCensus offline() {
    EncodingConfig config = EncodingConfig.defaults();
    return new RecordCensus(new OfflineEncoder(config), new EvidenceOrganizer(), new ReferenceContextTracker(config), 10);
  }

  public RecordCensus(Encoder encoder, EvidenceOrganizer organizer, ReferenceContextTracker references,
      int sampleCount) {
    this.encoder = Objects.requireNonNull(encoder, "encoder");
    this.organizer = Objects.requireNonNull(organizer, "organizer");
    this.references = Objects.requireNonNull(references, "references");
    if (sampleCount < 0) {
      throw new IllegalArgumentException("sampleCount must be >= 0");
    }
    this.sampleCount = sampleCount;
    for (MemoryType t : MemoryType.values()) {
      perType.put(t, 0);
    }
    for (NodeKind k : NodeKind.values()) {
      perKind.put(k, 0);
    }
  }

  /** Encodes and organises one closed segment of the current conversation. */
  public void segment(Segment segment) {
    ReferenceContext context = references.current(segment.namespace(), segment.session());
    Encoding encoding = encoder.encode(segment, context);
    references.update(segment.namespace(), segment.session(), encoding);
    segments++;
    if (encoding.records().isEmpty()) {
      emptySegments++;
      if (emptyExamples.size() < EMPTY_EXAMPLES) {
        String text = segment.turns().stream().map(t -> t.content().strip()).collect(Collectors.joining(" / "));
        emptyExamples.add(text.length() > 160 ? text.substring(0, 157) + "..." : text);
      }
    }
    for (MemoryRecord r : encoding.records()) {
      conversationRecords.putIfAbsent(r.id(), r);
    }
    for (EvidenceNode n : organizer.organize(segment, encoding.records())) {
      if (conversationNodes.add(n.id())) {
        perKind.merge(n.kind(), 1, Integer::sum);
      }
    }
  }

  /** Closes the current conversation: its distinct records are counted and kept for sampling. */
  public void endConversation() {
    for (MemoryRecord r : conversationRecords.values()) {
      perType.merge(r.type(), 1, Integer::sum);
      all.add(r);
    }
    conversationRecords.clear();
    conversationNodes.clear();
  }

  /** The counts so far; samples are evenly spaced over all records (the first one included). */
  public Result result() {
    List<MemoryRecord> samples = new ArrayList<>();
    int n = Math.min(sampleCount, all.size());
    for (int i = 0; i < n; i++) {
      samples.add(all.get((int) ((long) i * all.size() / n)));
    }
    int plans = (int) all.stream().filter(r -> r.tags().contains("plan")).count();
    return new Result(all.size(), perType, plans, perKind, samples, segments, emptySegments, emptyExamples);
  }
}
