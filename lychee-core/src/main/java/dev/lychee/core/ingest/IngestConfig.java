package dev.lychee.core.ingest;

import dev.lychee.api.NodeKind;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Immutable configuration of the write path: turn admission, segment closing across sessions, and
 * how closed segments are encoded (on the caller's thread or in the background, with which
 * concurrency, queue bound, full-queue policy and retries). Build with {@link #builder()}.
 *
 * @param maxTurnChars turns longer than this are rejected by {@code append} (default 1,000,000)
 * @param flushOtherSessions when a namespace receives turns for a session, close the open
 *     segments of its other sessions first (default true)
 * @param reembedNodes re-embed an already stored evidence node when a later segment yields it again
 *     (default false: keep its first vector)
 * @param encodeMode where segments are encoded (default {@link EncodeMode#AUTO})
 * @param concurrency background encoding threads: sessions encoded in parallel (default 2)
 * @param queueCapacity how many segments the background queue holds before {@code whenFull}
 *     applies to new calls (default 1,000)
 * @param whenFull what a call does when the queue is full (default {@link FullQueuePolicy#WAIT})
 * @param fullQueueWait how long {@link FullQueuePolicy#WAIT} waits before throwing (default 30 s)
 * @param maxAttempts encoding attempts per segment before it is left PENDING (default 4)
 * @param retryBackoff the delay before the second attempt; doubled per attempt, with jitter
 *     (default 500 ms)
 * @param maxBackoff the longest delay between attempts (default 30 s)
 * @param resumeOnOpen queue the PENDING segments of every namespace when Lychee is created
 *     (default true)
 * @param claimLease how long a claim on a segment being encoded lasts; a claim of an instance that
 *     died mid-encoding lets another instance take the segment over after it (default 15 min)
 * @param sweepPeriod background mode: how often the stored PENDING segments that no lane of this
 *     process holds are queued again (ones skipped while another owner held their session, ones a
 *     dead instance left claimed), so a shared queue drains without a restart; zero turns the
 *     sweep off (default 1 min)
 * @param derivedNodeKinds evidence-node kinds whose vector is derived from the vectors of the
 *     records they link in the segment that creates them (their normalised mean) instead of
 *     embedding the node's own text: a trade of recall for ingest speed, since tag and entity-tag
 *     nodes are most of the texts an ingest embeds (docs/defaults.md §3.2). A node none of whose
 *     records is in its segment is embedded as usual. {@code TEMPORAL} nodes have no vector and
 *     cannot be listed (default: {@code TAG} and {@code ENTITY_TAG}, measured to keep recall on the
 *     dev half within 0.002 while ingest embeds 4.2 texts per turn instead of 10.4; an empty set
 *     embeds every node)
 * @param turnVectorsFromExchanges a turn that forms an exchange on its own (the usual case when a
 *     conversation has no assistant turns) takes its exchange's vector, of {@code "user: <turn
 *     text>"}, instead of an embedding of its own text: one embedding instead of two per such turn,
 *     at the price of a role prefix in the turn's vector (a quality change, docs/defaults.md
 *     §3.4; default false)
 * @param backgroundYield background mode: how long each step of a background encoding attempt
 *     (the encoder call, organising and embedding, the commit) waits at most for the {@code
 *     append} calls in progress to finish, so that its work does not share the cores with a
 *     waiting caller's (default {@code Duration.ZERO}, never waits: with 200 ms the appends were
 *     not faster in the one run measured, docs/defaults.md §7)
 * @param segmentInBackground background mode: {@code append} stores, embeds and indexes the turns
 *     on the caller's thread (they are durable and searchable when it returns) and leaves
 *     embedding the session's exchanges, the segment decision and storing closed segments to a
 *     per-session background lane; {@code flush}, {@code awaitIdle} and {@code close} wait for it
 *     (default true: half the texts an append embedded on LoCoMo, docs/defaults.md §1.3; false
 *     segments on the caller's thread as the synchronous mode always does)
 * @param embedWhileStoring with {@code segmentInBackground}: {@code append} starts embedding its
 *     turns on a pool thread ({@code concurrency} threads at most) while the caller's thread stores
 *     them, so the caller waits for the longer of the store's commit (mostly a disk sync) and the
 *     embedding instead of their sum; an append that finds every pool thread busy embeds on its own
 *     thread first (default true, docs/defaults.md §3.3; false embeds after the commit, as before)
 * @param idleFlush a session whose segmenter nobody used for this long is flushed: its open
 *     segment closes and is encoded (or queued) as after {@code flush}, and its in-memory state is
 *     released, so integrations that never flush (a chat memory, an advisor) neither keep a
 *     segmenter per conversation for ever nor leave a conversation's last exchanges unencoded
 *     (default 30 min, docs/defaults.md §1.3; zero turns it off)
 */
public record IngestConfig(
    int maxTurnChars,
    boolean flushOtherSessions,
    boolean reembedNodes,
    EncodeMode encodeMode,
    int concurrency,
    int queueCapacity,
    FullQueuePolicy whenFull,
    Duration fullQueueWait,
    int maxAttempts,
    Duration retryBackoff,
    Duration maxBackoff,
    boolean resumeOnOpen,
    Duration claimLease,
    Duration sweepPeriod,
    Set<NodeKind> derivedNodeKinds,
    boolean turnVectorsFromExchanges,
    Duration backgroundYield,
    boolean segmentInBackground,
    boolean embedWhileStoring,
    Duration idleFlush) {

  /** Where closed segments are encoded. */
  public enum EncodeMode {
    /** {@link #ASYNC} when the encoder calls an LLM, {@link #SYNC} for the offline encoder. */
    AUTO,
    /** On the caller's thread: {@code append} returns after the segments it closed are encoded. */
    SYNC,
    /** On background threads: {@code append} returns once turns are stored and segments queued. */
    ASYNC;

    /** Whether segments go to the background queue, given whether the encoder calls an LLM. */
    public boolean background(boolean llmEncoder) {
      return this == ASYNC || (this == AUTO && llmEncoder);
    }
  }

  /** What a call does when the background queue is full. Work is never dropped. */
  public enum FullQueuePolicy {
    /** Wait for room up to {@link IngestConfig#fullQueueWait()}, then throw. */
    WAIT,
    /** Throw {@link dev.lychee.api.QueueFullException} at once. */
    REJECT
  }

  public IngestConfig {
    if (maxTurnChars < 1) {
      throw new IllegalArgumentException("maxTurnChars must be >= 1: " + maxTurnChars);
    }
    Objects.requireNonNull(encodeMode, "encodeMode");
    if (concurrency < 1 || concurrency > 256) {
      throw new IllegalArgumentException("concurrency must be in [1, 256]: " + concurrency);
    }
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("queueCapacity must be >= 1: " + queueCapacity);
    }
    Objects.requireNonNull(whenFull, "whenFull");
    requireNonNegative(fullQueueWait, "fullQueueWait");
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw new IllegalArgumentException("maxAttempts must be in [1, 100]: " + maxAttempts);
    }
    requireNonNegative(retryBackoff, "retryBackoff");
    requireNonNegative(maxBackoff, "maxBackoff");
    if (maxBackoff.compareTo(retryBackoff) < 0) {
      throw new IllegalArgumentException("maxBackoff (" + maxBackoff + ") must be >= retryBackoff (" + retryBackoff + ")");
    }
    requireNonNegative(claimLease, "claimLease");
    if (claimLease.toMillis() < 1000) {
      throw new IllegalArgumentException("claimLease must be at least 1 s: " + claimLease);
    }
    requireNonNegative(sweepPeriod, "sweepPeriod");
    requireNonNegative(backgroundYield, "backgroundYield");
    if (backgroundYield.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("backgroundYield must be at most 1 min: " + backgroundYield);
    }
    requireNonNegative(idleFlush, "idleFlush");
    if (!idleFlush.isZero() && idleFlush.toMillis() < 10) {
      throw new IllegalArgumentException("idleFlush must be 0 (off) or at least 10 ms: " + idleFlush);
    }
    if (!sweepPeriod.isZero() && sweepPeriod.toMillis() < 10) {
      throw new IllegalArgumentException("sweepPeriod must be 0 (off) or at least 10 ms: " + sweepPeriod);
    }
    Objects.requireNonNull(derivedNodeKinds, "derivedNodeKinds");
    if (derivedNodeKinds.contains(NodeKind.TEMPORAL)) {
      throw new IllegalArgumentException("derivedNodeKinds cannot hold TEMPORAL: temporal nodes have no vector");
    }
    derivedNodeKinds = derivedNodeKinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(derivedNodeKinds));
  }

  private static void requireNonNegative(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative: " + d);
    }
  }

  /** The defaults. */
  public static IngestConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder initialised with this configuration's values. */
  public Builder toBuilder() {
    return new Builder().maxTurnChars(maxTurnChars).flushOtherSessions(flushOtherSessions)
        .reembedNodes(reembedNodes).encodeMode(encodeMode).concurrency(concurrency).queueCapacity(queueCapacity)
        .whenFull(whenFull).fullQueueWait(fullQueueWait).maxAttempts(maxAttempts).retryBackoff(retryBackoff)
        .maxBackoff(maxBackoff).resumeOnOpen(resumeOnOpen).claimLease(claimLease).sweepPeriod(sweepPeriod)
        .derivedNodeKinds(derivedNodeKinds).turnVectorsFromExchanges(turnVectorsFromExchanges)
        .backgroundYield(backgroundYield).segmentInBackground(segmentInBackground)
        .embedWhileStoring(embedWhileStoring).idleFlush(idleFlush);
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private int maxTurnChars = 1_000_000;
    private boolean flushOtherSessions = true;
    private boolean reembedNodes = false;
    private EncodeMode encodeMode = EncodeMode.AUTO;
    private int concurrency = 2;
    private int queueCapacity = 1_000;
    private FullQueuePolicy whenFull = FullQueuePolicy.WAIT;
    private Duration fullQueueWait = Duration.ofSeconds(30);
    private int maxAttempts = 4;
    private Duration retryBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private boolean resumeOnOpen = true;
    private Duration claimLease = Duration.ofMinutes(15);
    private Duration sweepPeriod = Duration.ofMinutes(1);
    private Set<NodeKind> derivedNodeKinds = Set.of(NodeKind.TAG, NodeKind.ENTITY_TAG);
    private boolean turnVectorsFromExchanges = false;
    private Duration backgroundYield = Duration.ZERO;
    private boolean segmentInBackground = true;
    private boolean embedWhileStoring = true;
    private Duration idleFlush = Duration.ofMinutes(30);

    private Builder() {}

    public Builder maxTurnChars(int v) { maxTurnChars = v; return this; }
    public Builder flushOtherSessions(boolean v) { flushOtherSessions = v; return this; }
    public Builder reembedNodes(boolean v) { reembedNodes = v; return this; }
    public Builder encodeMode(EncodeMode v) { encodeMode = v; return this; }
    public Builder concurrency(int v) { concurrency = v; return this; }
    public Builder queueCapacity(int v) { queueCapacity = v; return this; }
    public Builder whenFull(FullQueuePolicy v) { whenFull = v; return this; }
    public Builder fullQueueWait(Duration v) { fullQueueWait = v; return this; }
    public Builder maxAttempts(int v) { maxAttempts = v; return this; }
    public Builder retryBackoff(Duration v) { retryBackoff = v; return this; }
    public Builder maxBackoff(Duration v) { maxBackoff = v; return this; }
    public Builder resumeOnOpen(boolean v) { resumeOnOpen = v; return this; }
    public Builder claimLease(Duration v) { claimLease = v; return this; }
    public Builder sweepPeriod(Duration v) { sweepPeriod = v; return this; }
    public Builder derivedNodeKinds(Set<NodeKind> v) { derivedNodeKinds = v; return this; }
    public Builder turnVectorsFromExchanges(boolean v) { turnVectorsFromExchanges = v; return this; }
    public Builder backgroundYield(Duration v) { backgroundYield = v; return this; }
    public Builder segmentInBackground(boolean v) { segmentInBackground = v; return this; }
    public Builder embedWhileStoring(boolean v) { embedWhileStoring = v; return this; }
    public Builder idleFlush(Duration v) { idleFlush = v; return this; }

    public IngestConfig build() {
      return new IngestConfig(maxTurnChars, flushOtherSessions, reembedNodes, encodeMode, concurrency,
          queueCapacity, whenFull, fullQueueWait, maxAttempts, retryBackoff, maxBackoff, resumeOnOpen, claimLease,
          sweepPeriod, derivedNodeKinds, turnVectorsFromExchanges, backgroundYield,
          segmentInBackground, embedWhileStoring, idleFlush);
    }
  }
}
