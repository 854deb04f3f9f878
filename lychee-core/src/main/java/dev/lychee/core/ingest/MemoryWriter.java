package dev.lychee.core.ingest;

import dev.lychee.api.Checks;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.IngestResult;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.core.organize.EvidenceOrganizer;
import dev.lychee.core.segment.Exchanges;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The write path of Lychee. Thread-safe: calls for different sessions run in parallel, calls for
 * the same session are serialised.
 */
@Singleton
public final class MemoryWriter {
  private final RecordStore store;
  private final VectorIndex vectors;
  private final Embedder embedder;
  private final Segmenter.Factory segmenters;
  private final LycheeConfig config;
  private final TurnAdmission admission;
  private final SegmentCommitter committer;
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final Map<String, SessionSegmentation> live = new ConcurrentHashMap<>();

  @Inject
  public MemoryWriter(RecordStore store, VectorIndex vectors, Embedder embedder, Segmenter.Factory segmenters,
      Encoder encoder, EvidenceOrganizer organizer, ReferenceContextTracker references, LycheeConfig config) {
    this.store = store;
    this.vectors = vectors;
    this.embedder = embedder;
    this.segmenters = segmenters;
    this.config = config;
    this.admission = new TurnAdmission(config.maxTurnChars());
    this.committer = new SegmentCommitter(store, vectors, embedder, encoder, organizer, references,
        config.reembedNodes());
  }

  /**
   * Stores, embeds and indexes the turns at once, then offers them to the session's segmenter and
   * encodes every segment that closes.
   *
   * @param sessionDate the session's date, used for turns without their own time; nullable
   * @throws IllegalArgumentException for a blank namespace or session, a blank or oversized turn
   */
  public IngestResult append(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns) {
    requireName(namespace, "namespace");
    requireName(session, "session");
    Objects.requireNonNull(turns, "turns");
    IngestResult result = IngestResult.EMPTY;
    if (config.flushOtherSessions()) {
      for (String other : openSessions(namespace)) {
        if (!other.equals(session)) {
          result = result.plus(flush(namespace, other));
        }
      }
    }
    synchronized (lock(namespace, session)) {
      List<RawTurn> admitted = admission.admit(namespace, session, sessionDate, turns,
          store.nextTurnIndex(namespace, session));
      List<RawTurn> stored = store.appendTurns(namespace, session, admitted);
      indexTurns(namespace, stored);
      SessionSegmentation seg = segmentation(namespace, session);
      List<Segment> closed = seg.offerStored(store, embedder);
      result = result.plus(new IngestResult(stored.size(), 0, 0, 0, 0, TokenUsage.ZERO, 0, List.of()));
      for (Segment s : closed) {
        result = result.plus(committer.closeAndEncode(s));
      }
    }
    return result;
  }

  /** Closes the session's open segment (if any) and encodes it. */
  public IngestResult flush(String namespace, String session) {
    requireName(namespace, "namespace");
    requireName(session, "session");
    synchronized (lock(namespace, session)) {
      IngestResult result = IngestResult.EMPTY;
      SessionSegmentation seg = segmentation(namespace, session);
      // after a restart, stored turns that no segment covers are offered before flushing
      List<Segment> closed = new ArrayList<>(seg.offerStored(store, embedder));
      closed.addAll(seg.flush());
      for (Segment s : closed) {
        result = result.plus(committer.closeAndEncode(s));
      }
      live.remove(key(namespace, session));
      return result;
    }
  }

  /** Flushes every session of the namespace that has an open segment in this process. */
  public IngestResult flushAll(String namespace) {
    IngestResult result = IngestResult.EMPTY;
    for (String s : openSessions(namespace)) {
      result = result.plus(flush(namespace, s));
    }
    return result;
  }

  /** Retries every segment of the namespace that is not encoded yet (PENDING or FAILED). */
  public IngestResult encodePending(String namespace) {
    requireName(namespace, "namespace");
    IngestResult result = IngestResult.EMPTY;
    for (StoredSegment s : store.segments(namespace)) {
      if (s.state() == SegmentState.PENDING || s.state() == SegmentState.FAILED) {
        synchronized (lock(namespace, s.segment().session())) {
          result = result.plus(committer.encode(s.segment()));
        }
      }
    }
    return result;
  }

  /**
   * Drops the in-memory state of a namespace (session null) or of one session: open segments and
   * the encoder's reference context. Call before {@code forget}, so that nothing of the forgotten
   * turns can reach a later encoder prompt.
   */
  public void discard(String namespace, String session) {
    List<String> sessions = session == null ? store.sessions(namespace) : List.of(session);
    for (String s : sessions) {
      synchronized (lock(namespace, s)) {
        live.remove(key(namespace, s));
        committer.forgetContext(namespace, s);
      }
    }
    if (session == null) {
      live.keySet().removeIf(k -> k.startsWith(namespace + '\u0000'));
    }
  }

  /**
   * Makes sure every stored turn of the namespace has a vector: when counts differ (for example
   * after a crash between the turn commit and the vector write) all turn vectors are rewritten.
   *
   * @return how many turns were re-embedded
   */
  public int backfillTurnVectors(String namespace) {
    long turns = store.countTurns(namespace);
    if (vectors.size(namespace, VectorIndex.TURNS) == turns) {
      return 0;
    }
    int n = 0;
    for (String session : store.sessions(namespace)) {
      List<RawTurn> all = store.turns(namespace, session);
      indexTurns(namespace, all);
      n += all.size();
    }
    return n;
  }

  private List<String> openSessions(String namespace) {
    String prefix = namespace + '\u0000';
    List<String> out = new ArrayList<>();
    for (String k : live.keySet()) {
      if (k.startsWith(prefix)) {
        out.add(k.substring(prefix.length()));
      }
    }
    return out;
  }

  private void indexTurns(String namespace, List<RawTurn> turns) {
    if (turns.isEmpty()) {
      return;
    }
    int maxChars = config.segmentation().maxEmbeddingChars();
    List<String> texts = turns.stream().map(t -> Exchanges.embeddingText(t.content(), maxChars)).toList();
    List<float[]> vs = embedder.embedDocuments(texts);
    Map<String, float[]> byId = new LinkedHashMap<>();
    for (int i = 0; i < turns.size(); i++) {
      byId.put(turns.get(i).id(), vs.get(i));
    }
    vectors.upsert(namespace, VectorIndex.TURNS, byId);
  }

  private SessionSegmentation segmentation(String namespace, String session) {
    return live.computeIfAbsent(key(namespace, session), k -> new SessionSegmentation(namespace, session,
        segmenters.create(namespace, session), config.segmentation(), store));
  }

  private Object lock(String namespace, String session) {
    return locks.computeIfAbsent(key(namespace, session), k -> new Object());
  }

  private static String key(String namespace, String session) {
    return namespace + '\u0000' + session;
  }

  private static void requireName(String value, String what) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
    Checks.name(value, what);
  }
}
