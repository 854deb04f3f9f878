package dev.lychee.core.ingest;

import dev.lychee.api.Checks;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnConflictException;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.Encoder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.SegmentClaims;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.core.metrics.LycheeMetrics;
import dev.lychee.core.organize.EvidenceOrganizer;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.core.segment.SegmentationConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of Lychee. Thread-safe: calls for different sessions run in parallel, calls for
 * the same session are serialised.
 *
 * <p><b>No exception after turns are stored.</b> An {@code append} that throws stored nothing
 * (invalid input, a full queue, a conflicting index, a store failure before the one turn
 * transaction committed), so the caller may retry it as is. Once the turns are committed, every
 * later failure (turn embedding, segmentation, encoding, vectors, commit) is reported in the
 * returned {@link IngestResult#failures()} and repaired later: turn vectors by
 * {@link #backfillTurnVectors} (on the next open, or {@code Lychee.encodePending}), segments by
 * {@link #encodePending} (the next open, the sweep, or the session's next segment).
 *
 * <p>Segments are encoded on the caller's thread or by the background {@link EncodeQueue},
 * per {@link IngestConfig#encodeMode()}. In the background mode with
 * {@link IngestConfig#segmentInBackground()} the session's segmentation (embedding its exchanges,
 * the segment decision, storing closed segments as PENDING) runs on a {@link SegmentationLanes}
 * lane too, and the caller's thread only stores, embeds and indexes the turns.
 *
 * <p>Locks: per session, {@code lock} serialises the calls that store turns and {@code segLock}
 * guards the session's segmenter; a thread that holds both took {@code lock} first, and a
 * background segmentation step holds only {@code segLock}, so an append never waits for one.
 */
@Singleton
public final class MemoryWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryWriter.class);
  private final RecordStore store;
  private final VectorIndex vectors;
  private final Embedder embedder;
  private final Segmenter.Factory segmenters;
  private final IngestConfig config;
  private final SegmentationConfig segmentation;
  private final TurnAdmission admission;
  private final SegmentCommitter committer;
  private final EncodeRunner runner;
  private final EncodeQueue queue;
  private final LycheeMetrics metrics;
  private final boolean background;
  private final Clock clock = Clock.systemUTC();
  private final FailureLog failures = new FailureLog();
  /** Appends in progress; background encoding steps aside for them (docs/defaults.md §7). */
  private final ForegroundActivity foreground;
  /**
   * The session locks, striped: a session's {@code lock} and {@code segLock} are the stripes its key
   * hashes to, so they take no memory per session (review C F7: one pair of lock objects per session
   * ever written, never released, grew a long-running process's heap). Two sessions that share a
   * stripe are serialised as if they were one, which is correct and, with {@value #LOCK_STRIPES}
   * stripes, rare. A thread holds at most one stripe of each array, {@code lock} before
   * {@code segLock}, and waits for a background step only while it holds no {@code segLock}, so
   * sharing a stripe cannot deadlock.
   */
  private final Object[] locks = stripes();
  private final Object[] segLocks = stripes();
  private static final int LOCK_STRIPES = 1024;
  /** Background segmentation, null unless background mode with segmentInBackground. */
  private final SegmentationLanes lanes;
  /** Embeds a deferred append's turn texts while its turns are stored; null without lanes or embedWhileStoring. */
  private final TurnEmbeddingsAhead ahead;
  /** What background segmentation steps closed or failed, per session, until its next flush returns it. */
  private final Map<SessionKey, IngestResult> carried = new ConcurrentHashMap<>();
  /** How long flush, discard and close wait at most for a session's background segmentation. */
  private static final Duration LANE_WAIT = Duration.ofMinutes(10);
  /**
   * How long {@link #close} spends at most closing open segments (docs/defaults.md §1.3): each
   * session's open segment is stored as PENDING for the next open to encode, and a session not
   * reached in time keeps its turns stored but unsegmented until its next append or flush, as
   * before round twenty-six.
   */
  static final Duration CLOSE_FLUSH_BUDGET = Duration.ofSeconds(30);
  private final Map<SessionKey, SessionSegmentation> live = new ConcurrentHashMap<>();
  /**
   * Turns the caller's thread stored for a session's background segmentation, until its next step
   * takes them: the step offers them without reading the store again when they continue exactly
   * where the segmenter stands (on Lucene such a read reopened the searchers under the write lock
   * that the next append then waited for). Guarded by the map's per-key atomicity.
   */
  private final Map<SessionKey, List<RawTurn>> handed = new ConcurrentHashMap<>();
  /** Rebuilds of a session's segmenter after refused segments, per call, before giving up. */
  private static final int MAX_RESEGMENTATIONS = 16;

  @Inject
  public MemoryWriter(RecordStore store, VectorIndex vectors, Embedder embedder, Segmenter.Factory segmenters,
      Encoder encoder, EvidenceOrganizer organizer, ReferenceContextTracker references, IngestConfig config,
      SegmentationConfig segmentation, SegmentClaims claims, LycheeMetrics metrics) {
    this.store = store;
    this.vectors = vectors;
    this.embedder = embedder;
    this.segmenters = segmenters;
    this.config = config;
    this.segmentation = segmentation;
    this.metrics = metrics;
    this.admission = new TurnAdmission(config.maxTurnChars());
    this.foreground = new ForegroundActivity(config.backgroundYield());
    this.committer = new SegmentCommitter(store, vectors, embedder, encoder, organizer, references,
        config.reembedNodes(), config.derivedNodeKinds(), metrics, foreground);
    String owner = "lychee-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    this.runner = new EncodeRunner(committer, claims, config, metrics, owner);
    this.background = config.encodeMode().background(!"offline".equals(encoder.name()));
    this.queue = new EncodeQueue(config, runner, this::pendingOf, failures, clock);
    metrics.pendingGauge(queue::depth);
    this.lanes = background && config.segmentInBackground()
        ? new SegmentationLanes(config.concurrency(), this::segmentStep) : null;
    this.ahead = lanes != null && config.embedWhileStoring() ? new TurnEmbeddingsAhead(embedder, config.concurrency()) : null;
    if (background && !config.sweepPeriod().isZero()) {
      queue.every(config.sweepPeriod(), this::sweep);
    }
    if (!config.idleFlush().isZero()) {
      queue.every(idleCheckPeriod(config.idleFlush()), this::flushIdle);
    }
  }

  /** How often idle sessions are looked for: half the idle time, between 10 ms and a minute. */
  static Duration idleCheckPeriod(Duration idleFlush) {
    Duration half = idleFlush.dividedBy(2);
    Duration min = Duration.ofMillis(10);
    Duration max = Duration.ofMinutes(1);
    return half.compareTo(min) < 0 ? min : half.compareTo(max) > 0 ? max : half;
  }

  /**
   * Flushes the sessions whose segmenter nobody used for {@link IngestConfig#idleFlush()}: their
   * open segment closes and is encoded (or queued) as after a {@code flush}, and their in-memory
   * state is released. Integrations that never call {@code flush} (a chat memory, an advisor) would
   * otherwise keep one segmenter per conversation, and its last exchanges unencoded, until close.
   */
  private void flushIdle() {
    long cutoff = System.nanoTime() - config.idleFlush().toNanos();
    for (Map.Entry<SessionKey, SessionSegmentation> e : live.entrySet()) {
      if (e.getValue().lastUsed() - cutoff > 0) {
        continue;
      }
      SessionKey key = e.getKey();
      synchronized (lock(key.namespace(), key.session())) {
        // checked again under the session's lock: an append since then keeps it open
        SessionSegmentation seg = live.get(key);
        if (seg == null || seg.lastUsed() - cutoff > 0) {
          continue;
        }
        IngestResult r = flush(key.namespace(), key.session(), true);
        if (!r.ok()) {
          LOG.warn("flushing idle session '{}' failed: {}", key.session(), r.failures().get(0).message());
        }
      }
    }
  }

  /**
   * Queues the stored PENDING segments of sessions that no lane of this process holds: a segment
   * skipped because another owner held its session past the claim wait, or one a dead instance
   * left claimed (taken over once its lease ends). Sessions stopped here after a failure, and
   * sessions whose first PENDING segment has used up its attempts, are left for
   * {@code encodePending}, so a failing encoder is not called again every period.
   *
   * <p>It reads the namespaces with segments not encoded yet, then those namespaces' such segments
   * only (review C F8: before, every segment of every namespace, each period, on every instance).
   */
  private void sweep() {
    for (String ns : store.pendingNamespaces()) {
      Map<String, List<Segment>> pending = new LinkedHashMap<>();
      for (StoredSegment s : store.pendingSegments(ns)) {
        if (s.state() == SegmentState.PENDING) {
          pending.computeIfAbsent(s.segment().session(), k -> new ArrayList<>()).add(s.segment());
        }
      }
      pending.forEach((session, segments) -> {
        if (!queue.holds(new SessionKey(ns, session)) && !runner.exhausted(segments.get(0))) {
          queue.submit(segments);
        }
      });
    }
  }

  /** Whether closed segments are encoded in the background. */
  public boolean background() {
    return background;
  }

  /**
   * Stores, embeds and indexes the turns at once, then offers them to the session's segmenter;
   * every segment that closes is stored as PENDING and encoded (now, or in the background).
   *
   * @param sessionDate the session's date, used for turns without their own time; nullable
   * @throws IllegalArgumentException for a blank namespace or session, a blank or oversized turn,
   *     an index above the maximum or a date outside years 1-9999 (nothing is stored)
   * @throws TurnConflictException when an explicit index is stored with another text (nothing is
   *     stored)
   * @throws dev.lychee.api.QueueFullException when the background queue is full (nothing is stored)
   */
  public IngestResult append(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns) {
    requireName(namespace, "namespace");
    requireName(session, "session");
    Objects.requireNonNull(turns, "turns");
    if (background) {
      queue.admit();
    }
    foreground.enter();
    try {
      return appendNow(namespace, session, sessionDate, turns);
    } finally {
      foreground.exit();
    }
  }

  private IngestResult appendNow(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns) {
    IngestResult result = IngestResult.EMPTY;
    if (config.flushOtherSessions()) {
      for (String other : openSessions(namespace)) {
        if (!other.equals(session)) {
          result = result.plus(flush(namespace, other));
        }
      }
    }
    synchronized (lock(namespace, session)) {
      // An append whose turns all carry an index, or all lack one, is first tried as if it came
      // after every stored turn (an agent appending in order): then nothing the session's next
      // index decides differs (no explicit index can be stored yet, so there is no conflict to
      // check, and its segmentation can wait for the lane), so that index is not read before the
      // store's transaction; the store's admission checks it under its write lock and, when an
      // explicit index lies below it, stores nothing, and the call runs again with the index read
      // first, as every other call does. One round trip less per append on a database server
      // (docs/defaults.md §3.3).
      boolean uniform = turns.stream().allMatch(t -> t != null && t.index() >= 0)
          || turns.stream().allMatch(t -> t != null && t.index() < 0);
      Attempt attempt = uniform ? tryInOrder(namespace, session, sessionDate, turns) : null;
      if (attempt == null) {
        attempt = store(namespace, session, sessionDate, turns, store.nextTurnIndex(namespace, session));
      }
      boolean deferred = attempt.deferred();
      TurnEmbeddingsAhead.Pending embedding = attempt.embedding();
      SessionSegmentation open = live.get(new SessionKey(namespace, session));
      if (open != null) {
        open.touch();
      }
      List<RawTurn> stored = attempt.stored();
      metrics.appended(namespace, stored.size());
      result = result.plus(IngestResult.stored(stored.size()));
      // from here on nothing throws: the turns are committed
      if (deferred) {
        try {
          indexTurns(namespace, stored, embedding);
        } catch (RuntimeException e) {
          result = result.plus(IngestResult.failed(new SegmentFailure(namespace, session, FailureKinds.kind(e),
              "turns of session '" + session + "' are stored, but embedding them failed (the next open or "
                  + "encodePending restores missing vectors): " + e.getMessage())));
        }
        SessionKey key = new SessionKey(namespace, session);
        handed.compute(key, (k, have) -> {
          List<RawTurn> all = have == null ? new ArrayList<>() : have;
          all.addAll(stored);
          return all;
        });
        lanes.request(key);
        return result;
      }
      synchronized (segLock(namespace, session)) {
        List<Segment> closed;
        try {
          SessionSegmentation seg = segmentation(namespace, session);
          seg.noteStored(stored);
          closed = indexAndOffer(namespace, seg, stored);
        } catch (RuntimeException e) {
          return result.plus(IngestResult.failed(new SegmentFailure(namespace, session, FailureKinds.kind(e),
              "turns of session '" + session + "' are stored, but embedding or segmenting them failed (they are "
                  + "segmented on the next append or flush, and the next open or encodePending restores missing vectors): "
                  + e.getMessage())));
        }
        result = result.plus(handOver(namespace, session, closed, false, true));
      }
    }
    return result;
  }

  /**
   * A background segmentation step ({@link SegmentationLanes}): embeds the session's exchanges not
   * offered yet (giving way to callers' embeddings), offers them to the segmenter and hands the
   * segments that close over; what it closed or failed is returned by the session's next flush.
   */
  private void segmentStep(SessionKey key) {
    String namespace = key.namespace();
    String session = key.session();
    IngestResult r;
    synchronized (segLock(namespace, session)) {
      List<Segment> closed;
      try {
        List<RawTurn> mine = handed.remove(key);
        closed = segmentation(namespace, session).offerHanded(mine == null ? List.of() : mine, store, embedder,
            EmbeddingPriority.BACKGROUND);
      } catch (RuntimeException e) {
        r = IngestResult.failed(new SegmentFailure(namespace, session, FailureKinds.kind(e),
            "segmenting the stored turns of session '" + session + "' in the background failed; they are "
                + "segmented on the next append or flush: " + e.getMessage()));
        carried.merge(key, r, IngestResult::plus);
        return;
      }
      r = handOver(namespace, session, closed, false, true);
    }
    if (r.segmentsClosed() > 0 || !r.failures().isEmpty()) {
      carried.merge(key, r, IngestResult::plus);
    }
  }

  /** Waits (bounded) until no background segmentation step of the session is queued or running. */
  private void awaitLanes(SessionKey key) {
    awaitLanes(key::equals, LANE_WAIT);
  }

  private boolean awaitLanes(Predicate<SessionKey> which, Duration timeout) {
    if (lanes == null) {
      return true;
    }
    try {
      return lanes.awaitIdle(which, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What storing a call's turns gave: the turns, whether segmentation waits for the lane, the embedding ahead. */
  private record Attempt(List<RawTurn> stored, boolean deferred, TurnEmbeddingsAhead.Pending embedding) {}

  /** Thrown out of the store's admission when the session's next index lies above an explicit index. */
  private static final class NotInOrder extends RuntimeException {
    NotInOrder() {
      super("an explicit turn index lies below the session's next index", null, false, false);
    }
  }

  /**
   * Stores the call's turns assuming every explicit index is at or above the session's next index,
   * without reading that index first; null (nothing stored) when the store's admission finds the
   * assumption false. The provisional turns (for validation and the embedding ahead) do not depend
   * on the index assumed: a call of explicit indices only keeps them, and one without indices only
   * differs in the indices, which no text depends on.
   */
  private Attempt tryInOrder(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns) {
    int lowestExplicit = turns.stream().mapToInt(Turn::index).filter(i -> i >= 0).min().orElse(Integer.MAX_VALUE);
    try {
      return store(namespace, session, sessionDate, turns, -1, next -> {
        if (lowestExplicit < next) {
          throw new NotInOrder();
        }
        return admission.admit(namespace, session, sessionDate, turns, next);
      });
    } catch (NotInOrder e) {
      return null;
    }
  }

  /** Stores the call's turns knowing the session's next index, read before. */
  private Attempt store(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns, int nextIndex) {
    return store(namespace, session, sessionDate, turns, nextIndex,
        next -> admission.admit(namespace, session, sessionDate, turns, next));
  }

  /**
   * @param nextIndex the session's next index read before, or -1 for a call assumed in order
   *     (every explicit index at or above it)
   */
  private Attempt store(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns, int nextIndex,
      java.util.function.IntFunction<List<RawTurn>> admit) {
    boolean assumed = nextIndex < 0;
    // a turn after every stored one can never be late for the segmenter (it has seen stored turns
    // only), so its segmentation can wait for the session's lane; a call with an explicit index
    // below that may hold late turns: it segments here, after the lane's steps so far (while this
    // thread holds the session's lock no new step is requested)
    boolean deferred = lanes != null && !config.turnVectorsFromExchanges()
        && (assumed || turns.stream().allMatch(t -> t.index() < 0 || t.index() >= nextIndex));
    if (lanes != null && !deferred) {
      awaitLanes(new SessionKey(namespace, session));
    }
    // validation and the conflict check first (they only concern explicit indices), then the
    // store assigns free indices inside its write transaction (several processes on one file)
    List<RawTurn> provisional = admission.admit(namespace, session, sessionDate, turns, assumed ? 0 : nextIndex);
    if (!assumed) {
      rejectConflicts(namespace, session, turns, provisional, nextIndex);
    }
    // a deferred append's turn vectors depend on nothing the store decides: embedded meanwhile
    TurnEmbeddingsAhead.Pending embedding = deferred && ahead != null && !provisional.isEmpty()
        ? ahead.start(turnTexts(provisional)) : null;
    try {
      return new Attempt(store.appendTurns(namespace, session, admit), deferred, embedding);
    } catch (RuntimeException | Error e) {
      if (embedding != null) {
        embedding.discard();
      }
      throw e;
    }
  }

  /**
   * Throws when an explicit index is stored with another text. Only indices below {@code nextIndex}
   * (the session's first free index, read just before) can be stored, so a call whose turns all
   * come after the stored ones (an agent appending in order) reads nothing: on a database server
   * that is one round trip less per append.
   */
  private void rejectConflicts(String namespace, String session, List<Turn> turns, List<RawTurn> admitted, int nextIndex) {
    List<TurnRef> explicit = new ArrayList<>();
    for (Turn t : turns) {
      if (t.index() >= 0 && t.index() < nextIndex) {
        explicit.add(new TurnRef(session, t.index()));
      }
    }
    if (explicit.isEmpty()) {
      return;
    }
    List<TurnRef> conflicts = TurnAdmission.conflicts(admitted, store.turns(namespace, explicit));
    if (!conflicts.isEmpty()) {
      throw new TurnConflictException("turn index(es) " + conflicts.stream().map(r -> Integer.toString(r.index())).toList()
          + " of session '" + session + "' are already stored with a different text, speaker or role; stored turns "
          + "are never changed: send new turns without an index (or with a free one). Nothing of this call was stored.",
          conflicts);
    }
  }

  /**
   * Stores closed segments of one session as PENDING, then encodes them now or queues them. Never
   * throws; the caller holds the session's lock.
   *
   * <p>The store refuses a segment that shares a turn with one another writer (another instance on
   * the same database, or this process before a restart) stored meanwhile. Then the rest of the
   * batch is dropped too (it would leave a gap), the session's segmenter is rebuilt after the
   * stored segments and offered the stored turns again ({@code flushing}: and flushed), and what
   * closes is stored in the same way; so every turn ends in exactly one segment, encoded once.
   *
   * @param encode false to store the segments as PENDING only (at close: the next open encodes them)
   */
  private IngestResult handOver(String namespace, String session, List<Segment> closed, boolean flushing,
      boolean encode) {
    IngestResult result = IngestResult.EMPTY;
    List<Segment> pending = new ArrayList<>();
    int kept = 0;
    List<Segment> batch = closed;
    for (int round = 0; !batch.isEmpty(); round++) {
      int refusedAt = -1;
      for (int i = 0; i < batch.size() && refusedAt < 0; i++) {
        Segment s = batch.get(i);
        try {
          if (store.putSegment(s, SegmentState.PENDING)) {
            pending.add(s);
          } else {
            refusedAt = i;
          }
        } catch (RuntimeException e) {
          result = result.plus(IngestResult.failed(new SegmentFailure(s.namespace(), s.id(), FailureKinds.kind(e),
              "segment " + s.id() + " could not be stored (its turns are stored and are segmented again after "
                  + "a restart): " + e.getMessage())));
        }
      }
      kept += refusedAt < 0 ? batch.size() : refusedAt;
      if (refusedAt < 0) {
        break;
      }
      SessionKey key = new SessionKey(namespace, session);
      live.remove(key);
      if (round == MAX_RESEGMENTATIONS) {
        result = result.plus(IngestResult.failed(new SegmentFailure(namespace, session, "overlap",
            "segments of session '" + session + "' kept overlapping segments other writers stored; its turns are "
                + "stored and are segmented on the next append or flush")));
        break;
      }
      try {
        SessionSegmentation fresh = segmentation(namespace, session);
        List<Segment> again = new ArrayList<>(fresh.offerStored(store, embedder));
        if (flushing) {
          again.addAll(fresh.flush());
          live.remove(key);
        }
        batch = again;
      } catch (RuntimeException e) {
        live.remove(key);
        result = result.plus(IngestResult.failed(new SegmentFailure(namespace, session, FailureKinds.kind(e),
            "segmenting session '" + session + "' again after another writer stored its segments failed; its "
                + "turns are stored and are segmented on the next append or flush: " + e.getMessage())));
        break;
      }
    }
    if (kept == 0) {
      return result;
    }
    metrics.segmentsClosed(kept);
    result = result.plus(IngestResult.closed(kept));
    if (!encode) {
      return result;
    }
    if (background) {
      return result.plus(IngestResult.queued(queue.submit(pending)));
    }
    for (Segment s : pending) {
      result = result.plus(encodeNow(s));
    }
    return result;
  }

  private IngestResult encodeNow(Segment s) {
    IngestResult r = runner.runSync(s);
    if (r.ok()) {
      failures.forget(s.namespace(), s.id());
    } else {
      r.failures().forEach(failures::remember);
    }
    return r;
  }

  /**
   * Closes the session's open segment (if any) and its late turns, and encodes them. With background
   * segmentation it first waits for the session's step, and its result also counts what the steps
   * closed (or failed to) since the session's last flush.
   */
  public IngestResult flush(String namespace, String session) {
    requireName(namespace, "namespace");
    requireName(session, "session");
    return flush(namespace, session, true);
  }

  /** {@link #flush(String, String)}; {@code encode} false stores the closed segments as PENDING only. */
  private IngestResult flush(String namespace, String session, boolean encode) {
    SessionKey key = new SessionKey(namespace, session);
    synchronized (lock(namespace, session)) {
      awaitLanes(key);
      IngestResult before = carried.remove(key);
      IngestResult result = before == null ? IngestResult.EMPTY : before;
      synchronized (segLock(namespace, session)) {
        List<Segment> closed = new ArrayList<>();
        try {
          SessionSegmentation seg = segmentation(namespace, session);
          // after a restart, stored turns that no segment covers are offered before flushing
          closed.addAll(seg.offerStored(store, embedder));
          closed.addAll(seg.flush());
        } catch (RuntimeException e) {
          return result.plus(IngestResult.failed(new SegmentFailure(namespace, session, FailureKinds.kind(e),
              "flushing session '" + session + "' failed; its turns are stored and are segmented on the next flush: "
                  + e.getMessage())));
        }
        live.remove(key);
        return result.plus(handOver(namespace, session, closed, true, encode));
      }
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

  /**
   * Encodes (or, in the background mode, queues) every segment of the namespace that is not encoded
   * yet (PENDING or FAILED), in session order. In the synchronous mode a session whose segment
   * still fails is left there, so its later segments wait behind it.
   */
  public IngestResult encodePending(String namespace) {
    requireName(namespace, "namespace");
    queue.clearStopped(namespace);
    failures.clear(namespace);
    Map<String, List<Segment>> bySession = pendingBySession(namespace);
    IngestResult result = IngestResult.EMPTY;
    for (Map.Entry<String, List<Segment>> e : bySession.entrySet()) {
      if (background) {
        result = result.plus(IngestResult.queued(queue.submit(e.getValue())));
        continue;
      }
      synchronized (lock(namespace, e.getKey())) {
        for (Segment s : e.getValue()) {
          IngestResult r = encodeNow(s);
          result = result.plus(r);
          if (!r.ok()) {
            break;
          }
        }
      }
    }
    return result;
  }

  /**
   * Resumes every namespace (on open): first the turn vectors a crash or a failed embedding lost
   * are rebuilt ({@link #backfillTurnVectors}: one count comparison per namespace when none is
   * missing), then the pending segments are queued, or encoded now when synchronous. A failure to
   * rebuild vectors (the embedder is down) does not stop the open: it is logged, returned, and
   * counted by {@link MemoryStatus#turnsWithoutVectors()} until {@code encodePending} or the next
   * open rebuilds them.
   */
  public IngestResult resumeAll() {
    IngestResult result = IngestResult.EMPTY;
    for (String ns : store.namespaces()) {
      result = result.plus(restoreTurnVectors(ns));
    }
    for (String ns : store.pendingNamespaces()) {
      result = result.plus(encodePending(ns));
    }
    return result;
  }

  private IngestResult restoreTurnVectors(String namespace) {
    try {
      int n = backfillTurnVectors(namespace);
      if (n > 0) {
        LOG.info("namespace '{}': turn vectors were missing (lost by a crash or a failed embedding); {} turns "
            + "were embedded again", namespace, n);
      }
      return IngestResult.EMPTY;
    } catch (RuntimeException e) {
      SegmentFailure f = new SegmentFailure(namespace, "turn-vectors", FailureKinds.kind(e),
          "rebuilding the missing turn vectors of namespace '" + namespace + "' failed; those turns are stored but "
              + "not found by vector search until encodePending or the next open rebuilds them: " + e.getMessage());
      LOG.warn(f.message());
      return IngestResult.failed(f);
    }
  }

  /**
   * Waits until the background queue holds nothing of the namespace (null: of any namespace).
   *
   * @return true when idle, false when {@code timeout} passed first
   */
  public boolean awaitIdle(String namespace, Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    long start = System.nanoTime();
    if (!awaitLanes(k -> namespace == null || k.namespace().equals(namespace), timeout)) {
      return false;
    }
    try {
      return queue.awaitIdle(namespace, timeout.minusNanos(System.nanoTime() - start));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The write-side state of a namespace. */
  public MemoryStatus status(String namespace) {
    requireName(namespace, "namespace");
    return StatusReport.of(namespace, store, vectors, queue, failures, clock);
  }

  /**
   * Drops the in-memory state of a namespace (session null) or of one session: queued segments,
   * open segments and the encoder's reference context, waiting for an attempt in progress there.
   * Call before {@code forget}, so that nothing of the forgotten turns reaches a later prompt or
   * commit.
   */
  public void discard(String namespace, String session) {
    // a background segmentation step of the sessions ends first: it could store a segment of them
    awaitLanes(k -> k.in(namespace, session), LANE_WAIT);
    try {
      queue.purge(namespace, session);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<String> sessions = session == null ? store.sessions(namespace) : List.of(session);
    for (String s : sessions) {
      synchronized (lock(namespace, s)) {
        synchronized (segLock(namespace, s)) {
          live.remove(new SessionKey(namespace, s));
          carried.remove(new SessionKey(namespace, s));
          handed.remove(new SessionKey(namespace, s));
          committer.forgetContext(namespace, s);
        }
      }
    }
    if (session == null) {
      live.keySet().removeIf(k -> k.namespace().equals(namespace));
      carried.keySet().removeIf(k -> k.namespace().equals(namespace));
      handed.keySet().removeIf(k -> k.namespace().equals(namespace));
    }
  }

  /**
   * Makes sure every stored turn of the namespace has a vector: when the index holds fewer turn
   * vectors than the store holds turns (a crash between the turn commit and the vector write, a
   * deferred vector commit lost, an embedding that failed during {@code append}) all turn vectors
   * are rewritten. More vectors than turns (orphans a crash during a deletion left) cannot be
   * repaired by embedding, so they do not make every open re-embed the namespace.
   *
   * @return how many turns were re-embedded
   */
  public int backfillTurnVectors(String namespace) {
    long turns = store.countTurns(namespace);
    if (vectors.size(namespace, VectorIndex.TURNS) >= turns) {
      return 0;
    }
    int n = 0;
    for (String session : store.sessions(namespace)) {
      List<RawTurn> all = store.turns(namespace, session);
      indexTurns(namespace, all, null);
      n += all.size();
    }
    return n;
  }

  /**
   * Runs the background segmentation steps already requested, closes every session's open segment
   * (its turns are stored; the segments are stored as PENDING and not encoded, so a close never
   * waits for an LLM), then stops background encoding after the attempts in progress; queued and
   * closed segments stay PENDING and the next open encodes them ({@code resumeOnOpen}). Closing open
   * segments takes at most {@link #CLOSE_FLUSH_BUDGET}.
   */
  @Override
  public void close() {
    if (lanes != null) {
      lanes.close();
    }
    if (ahead != null) {
      ahead.close();
    }
    try {
      closeOpenSegments();
    } finally {
      queue.close();
    }
  }

  /**
   * Review C F11: before, the open segments were dropped at close, and after the restart only the
   * session's next append or flush segmented their turns, so the last exchanges of a conversation
   * whose integration never flushes (a chat memory, an advisor) stayed raw turns for good.
   */
  private void closeOpenSegments() {
    Set<SessionKey> open = new LinkedHashSet<>(live.keySet());
    open.addAll(handed.keySet());
    long deadline = System.nanoTime() + CLOSE_FLUSH_BUDGET.toNanos();
    int left = open.size();
    for (SessionKey key : open) {
      if (System.nanoTime() - deadline > 0) {
        LOG.warn("close: {} sessions keep their open segment unsegmented ({} passed); their turns are stored and "
            + "are segmented at the session's next append or flush", left, CLOSE_FLUSH_BUDGET);
        return;
      }
      try {
        IngestResult r = flush(key.namespace(), key.session(), false);
        if (!r.ok()) {
          LOG.warn("close: closing the open segment of session '{}' failed: {}", key.session(),
              r.failures().get(0).message());
        }
      } catch (RuntimeException e) {
        LOG.warn("close: closing the open segment of session '{}' failed; its turns are stored and are segmented "
            + "at its next append or flush", key.session(), e);
      }
      left--;
    }
  }

  private Map<String, List<Segment>> pendingBySession(String namespace) {
    Map<String, List<Segment>> out = new LinkedHashMap<>();
    for (StoredSegment s : store.pendingSegments(namespace)) {
      if (s.state() == SegmentState.PENDING || s.state() == SegmentState.FAILED) {
        out.computeIfAbsent(s.segment().session(), k -> new ArrayList<>()).add(s.segment());
      }
    }
    return out;
  }

  private List<Segment> pendingOf(SessionKey key) {
    return pendingBySession(key.namespace()).getOrDefault(key.session(), List.of());
  }

  private List<String> openSessions(String namespace) {
    List<String> out = new ArrayList<>();
    for (SessionKey k : live.keySet()) {
      if (k.namespace().equals(namespace)) {
        out.add(k.session());
      }
    }
    return out;
  }

  /** Embeds and indexes stored turns, taking the vectors {@code ahead} (nullable) embedded while they were stored. */
  private void indexTurns(String namespace, List<RawTurn> turns, TurnEmbeddingsAhead.Pending ahead) {
    if (turns.isEmpty()) {
      if (ahead != null) {
        ahead.discard();
      }
      return;
    }
    List<String> texts = turnTexts(turns);
    upsertTurnVectors(namespace, turns, ahead != null ? ahead.vectorsOf(texts)
        : embedder.embedDocuments(texts, EmbeddingPriority.FOREGROUND));
  }

  /**
   * Embeds the newly stored turns and the session's fresh exchanges in one batch (the caller's
   * latency is then one batch, whose texts run in parallel), indexes the turn vectors, and offers
   * the exchanges to the segmenter. With {@link IngestConfig#turnVectorsFromExchanges()} a turn
   * that is an exchange on its own is not embedded itself but takes its exchange's vector; with
   * {@link dev.lychee.core.segment.SegmentationConfig#exchangeVectorsFromTurns()} such an exchange's
   * text is the turn's own, and a text that occurs twice in the batch is embedded once.
   */
  private List<Segment> indexAndOffer(String namespace, SessionSegmentation seg, List<RawTurn> stored) {
    SessionSegmentation.Fresh fresh = seg.fresh(store);
    Map<Integer, Integer> fromExchange = config.turnVectorsFromExchanges() ? singleTurnExchanges(fresh) : Map.of();
    List<RawTurn> own = stored.stream().filter(t -> !fromExchange.containsKey(t.index())).toList();
    List<String> texts = new ArrayList<>(turnTexts(own));
    texts.addAll(seg.embeddingTexts(fresh));
    if (texts.isEmpty()) {
      return List.of();
    }
    // with exchangeVectorsFromTurns a one-turn exchange's text is its turn's: embedded once
    List<float[]> vs = DistinctTexts.embed(embedder, texts, EmbeddingPriority.FOREGROUND);
    List<float[]> exchangeVectors = vs.subList(own.size(), vs.size());
    if (!stored.isEmpty()) {
      List<float[]> turnVectors = new ArrayList<>(stored.size());
      int next = 0;
      for (RawTurn t : stored) {
        Integer draft = fromExchange.get(t.index());
        turnVectors.add(draft == null ? vs.get(next++) : exchangeVectors.get(draft));
      }
      upsertTurnVectors(namespace, stored, turnVectors);
    }
    return seg.offer(fresh, exchangeVectors);
  }

  /** Turn index to the position of the fresh exchange that holds only that turn (no fragments). */
  private static Map<Integer, Integer> singleTurnExchanges(SessionSegmentation.Fresh fresh) {
    Map<Integer, Integer> out = new java.util.HashMap<>();
    Map<Integer, Integer> draftsPerTurn = new java.util.HashMap<>();
    for (int i = 0; i < fresh.drafts().size(); i++) {
      var d = fresh.drafts().get(i);
      d.turns().forEach(t -> draftsPerTurn.merge(t.index(), 1, Integer::sum));
      if (d.turns().size() == 1 && !d.forceFinalize()) {
        out.put(d.firstIndex(), i);
      }
    }
    out.keySet().removeIf(index -> draftsPerTurn.get(index) > 1);
    return out;
  }

  private List<String> turnTexts(List<RawTurn> turns) {
    int maxChars = segmentation.maxEmbeddingChars();
    return turns.stream().map(t -> Exchanges.embeddingText(t.content(), maxChars)).toList();
  }

  private void upsertTurnVectors(String namespace, List<RawTurn> turns, List<float[]> vs) {
    Map<String, float[]> byId = new LinkedHashMap<>();
    for (int i = 0; i < turns.size(); i++) {
      byId.put(turns.get(i).id(), vs.get(i));
    }
    vectors.upsert(namespace, VectorIndex.TURNS, byId);
  }

  private SessionSegmentation segmentation(String namespace, String session) {
    SessionSegmentation seg = live.computeIfAbsent(new SessionKey(namespace, session),
        k -> new SessionSegmentation(namespace, session, segmenters.create(namespace, session), segmentation, store));
    seg.touch();
    return seg;
  }

  private Object lock(String namespace, String session) {
    return locks[stripe(namespace, session)];
  }

  private Object segLock(String namespace, String session) {
    return segLocks[stripe(namespace, session)];
  }

  private static int stripe(String namespace, String session) {
    int h = new SessionKey(namespace, session).hashCode();
    return Math.floorMod(h ^ (h >>> 16), LOCK_STRIPES);
  }

  private static Object[] stripes() {
    Object[] out = new Object[LOCK_STRIPES];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Object();
    }
    return out;
  }

  /**
   * The per-session entries this writer holds in memory (open segmenters, results carried to a
   * flush, turns handed to a background step), for tests of review C F7: they are released by
   * {@code flush}, by the idle flush and by {@code discard}, so they are bounded by the sessions in
   * use, not by every session ever written.
   */
  int sessionEntries() {
    return live.size() + carried.size() + handed.size();
  }

  private static void requireName(String value, String what) {
    if (value == null) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
    Checks.name(value, what);
  }
}
