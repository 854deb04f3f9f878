package dev.lychee.core;

import com.google.inject.AbstractModule;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Module;
import dev.lychee.api.Answer;
import dev.lychee.api.Checks;
import dev.lychee.api.Forgotten;
import dev.lychee.api.LycheeException;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.fallback.ReadDeadline;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.metrics.LycheeMetrics;
import dev.lychee.core.ingest.MemoryStatus;
import dev.lychee.core.ingest.MemoryWriter;
import dev.lychee.core.read.RecallPipeline;
import dev.lychee.core.store.CheckedRecordStore;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lychee's entry point: long-term memory for one or many namespaces (users, agents, tenants).
 *
 * <pre>{@code
 * try (Lychee memory = Lychee.create(new OnnxEmbeddingModule())) {
 *   memory.append("alice", "s1", LocalDateTime.parse("2023-05-08T13:56"),
 *       List.of(Turn.user("Nadia", "I went to the choir rehearsal yesterday.")));
 *   memory.flush("alice", "s1");
 *   Recall r = memory.recall("alice", "When did Nadia go to the choir rehearsal?");
 * }
 * }</pre>
 *
 * <p>Thread-safe. Raw turns are committed before any LLM call; namespaces never see each other.
 */
public final class Lychee implements AutoCloseable {
  private final MemoryWriter writer;
  private final RecallPipeline recall;
  private final AnswerGenerator answerer;
  private final RecordStore store;
  private final VectorIndex vectors;
  private final Embedder embedder;
  private final LycheeConfig config;
  private final LycheeMetrics metrics;
  private final Resources resources;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Lychee(Injector injector, Resources resources) {
    this.resources = resources;
    // instance bindings are not provisioned, so what is fetched here is tracked explicitly
    this.store = resources.track(Composition.instance(injector, RecordStore.class));
    this.vectors = resources.track(Composition.instance(injector, VectorIndex.class));
    this.embedder = resources.track(Composition.instance(injector, Embedder.class));
    if (injector.getExistingBinding(Key.get(ChatModel.class)) != null) {
      resources.track(Composition.instance(injector, ChatModel.class));
    }
    // built after the store and index, so closed before them (background encoding stops first)
    this.writer = resources.track(Composition.instance(injector, MemoryWriter.class));
    this.recall = resources.track(Composition.instance(injector, RecallPipeline.class));
    this.answerer = resources.track(Composition.instance(injector, AnswerGenerator.class));
    this.config = Composition.instance(injector, LycheeConfig.class);
    this.metrics = Composition.instance(injector, LycheeMetrics.class);
    if (config.ingest().resumeOnOpen()) {
      writer.resumeAll();
    }
  }

  /** Creates Lychee with the default configuration; {@code modules} override the defaults. */
  public static Lychee create(Module... modules) {
    return create(LycheeConfig.defaults(), modules);
  }

  /**
   * Creates Lychee from {@link LycheeModule} with {@code config}, overridden by {@code modules}
   * (backends, an embedder, an LLM provider, custom bindings).
   *
   * <p>Each module's {@code configure()} runs once, when the injector is built; that is also when
   * a missing {@link Embedder} is reported. A component that fails to start (a store that cannot
   * open its file) is reported by its own exception, and what was already opened is closed.
   *
   * @throws LycheeException when no module binds an {@link Embedder}
   */
  public static Lychee create(LycheeConfig config, Module... modules) {
    Objects.requireNonNull(config, "config");
    Resources resources = new Resources();
    Injector injector = Composition.injector(config, Arrays.asList(modules), resources);
    try {
      return new Lychee(injector, resources);
    } catch (RuntimeException e) {
      resources.closeAfter(e);
      throw e;
    }
  }

  /** A builder for users who do not use dependency injection. */
  public static Builder builder() {
    return new Builder();
  }

  // ---- writing ----

  /**
   * Stores the turns of one session at once (raw turns are never lost), then segments them; every
   * segment that closes is stored as PENDING and encoded, on this thread or in the background
   * ({@link dev.lychee.core.ingest.IngestConfig#encodeMode()}).
   *
   * <p>In the background mode this returns once the turns are committed and embedded and the
   * closed segments are durably PENDING: raw turns are recallable at once, records once their
   * segment is encoded ({@link #awaitIdle} waits for that). An exception means nothing of the call
   * was stored, so retrying the same call is safe even without explicit indices; once the turns
   * are stored, later failures are reported in {@link IngestResult#failures()}, never thrown.
   *
   * @param sessionDate the session's date (anchors relative dates); nullable
   * @throws IllegalArgumentException for invalid input
   * @throws dev.lychee.api.TurnConflictException when an explicit index is stored with another text
   * @throws dev.lychee.api.QueueFullException when the background queue is full (policy REJECT, or
   *     WAIT timed out)
   */
  public IngestResult append(String namespace, String session, LocalDateTime sessionDate, List<Turn> turns) {
    ensureOpen();
    return writer.append(namespace, session, sessionDate, turns);
  }

  /** {@link #append(String, String, LocalDateTime, List)} without a session date. */
  public IngestResult append(String namespace, String session, List<Turn> turns) {
    return append(namespace, session, null, turns);
  }

  /** Closes the session's open segment and encodes (or queues) it: call at the end of a session. */
  public IngestResult flush(String namespace, String session) {
    ensureOpen();
    return writer.flush(namespace, session);
  }

  /** Flushes every session of the namespace with an open segment. */
  public IngestResult flushAll(String namespace) {
    ensureOpen();
    return writer.flushAll(namespace);
  }

  /**
   * Retries the segments of a namespace that are still pending (for example after an LLM outage or
   * a crash), in session order, and re-embeds turns whose vectors are missing. In the background
   * mode the segments are queued ({@link IngestResult#segmentsQueued()}); {@link #awaitIdle} waits.
   * Opening Lychee does the same for every namespace ({@code IngestConfig.resumeOnOpen}), so this
   * is for repairs without a restart (an embedder or LLM outage that has ended).
   */
  public IngestResult encodePending(String namespace) {
    ensureOpen();
    Checks.name(namespace, "namespace");
    writer.backfillTurnVectors(namespace);
    return writer.encodePending(namespace);
  }

  /**
   * Waits until no segment of the namespace is queued or being encoded in this process.
   *
   * @return true when idle, false when {@code timeout} passed first (segments stay queued)
   */
  public boolean awaitIdle(String namespace, Duration timeout) {
    ensureOpen();
    return writer.awaitIdle(namespace, timeout);
  }

  /** Turns, turns without vectors, segments by state, queue depth, oldest pending age and last error of a namespace. */
  public MemoryStatus status(String namespace) {
    ensureOpen();
    return writer.status(namespace);
  }

  // ---- reading ----

  /** Recalls evidence for a question with the default depth. */
  public Recall recall(String namespace, String question) {
    return recall(Question.of(namespace, question));
  }

  /** Recalls evidence: one plan, deterministic multi-route recall, fusion, reranking, selection. */
  public Recall recall(Question question) {
    return recall(question, RecallObserver.NONE);
  }

  /**
   * Recalls evidence and shows every stage's intermediate results to {@code observer}: pass a
   * {@link dev.lychee.api.RecallTrace} to see what each channel found, the fused and reranked pools
   * with the reranker's features, and each pick of the selector.
   */
  public Recall recall(Question question, RecallObserver observer) {
    ensureOpen();
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(observer, "observer");
    return ReadDeadline.within(config.fallback().deadline(), () -> timedRecall(question, observer));
  }

  private Recall timedRecall(Question question, RecallObserver observer) {
    long t0 = System.nanoTime();
    Recall r = recall.recall(question, observer);
    metrics.latency("recall", System.nanoTime() - t0);
    metrics.tokens("planner", r.plan().usage());
    return r;
  }

  /** Answers a question from recalled evidence. */
  public Answer answer(String namespace, String question) {
    return answer(Question.of(namespace, question));
  }

  /**
   * Answers a question: recall, then one answer call (or the extractive answerer offline). Planner
   * and answerer calls share one deadline ({@link dev.lychee.core.fallback.FallbackConfig}); when
   * the LLM fails or is late the offline planner and answerer step in, with one warning line.
   */
  public Answer answer(Question question) {
    ensureOpen();
    Objects.requireNonNull(question, "question");
    return ReadDeadline.within(config.fallback().deadline(), () -> {
      Recall r = timedRecall(question, RecallObserver.NONE);
      long t0 = System.nanoTime();
      Answer a = answerer.answer(question, r.plan(), r.evidence());
      metrics.latency("answer", System.nanoTime() - t0);
      metrics.tokens("answerer", a.usage());
      return new Answer(a.text(), a.evidence(), r.plan(), a.usage().plus(r.plan().usage()));
    });
  }

  // ---- deleting ----

  /** Removes everything stored for a namespace: turns, segments, records, nodes and vectors. */
  public Forgotten forget(String namespace) {
    ensureOpen();
    Checks.name(namespace, "namespace");
    writer.discard(namespace, null);
    Forgotten f = store.forget(namespace);
    vectors.forget(namespace);
    return f;
  }

  /** Removes one session of a namespace, with the records and nodes only it supported. */
  public Forgotten forget(String namespace, String session) {
    ensureOpen();
    Checks.name(namespace, "namespace");
    Checks.name(session, "session");
    writer.discard(namespace, session);
    Forgotten f = store.forget(namespace, session);
    vectors.remove(namespace, VectorIndex.TURNS, f.turnIds());
    vectors.remove(namespace, VectorIndex.RECORDS, f.recordIds());
    for (dev.lychee.api.NodeKind kind : dev.lychee.api.NodeKind.values()) {
      vectors.remove(namespace, VectorIndex.nodes(kind), f.nodeIds());
    }
    return f;
  }

  // ---- access ----

  /**
   * The record store this instance reads and writes: turns, segments, records, nodes. The built-in
   * store modules and {@link Builder#store} put core's argument checks ({@code CheckedRecordStore})
   * in front of the backend. Owned by this instance: {@link #close()} closes it; do not close it
   * yourself.
   */
  public RecordStore store() {
    return store;
  }

  /** The vector index of turns, records and nodes; owned by this instance and closed by {@link #close()}. */
  public VectorIndex vectors() {
    return vectors;
  }

  /** The embedder of every write and query (its {@code modelId()} names the model); closed by {@link #close()}. */
  public Embedder embedder() {
    return embedder;
  }

  /** The configuration this instance was created with (immutable). */
  public LycheeConfig config() {
    return config;
  }

  /**
   * Stops background encoding after the attempts in progress (queued segments stay PENDING and
   * are resumed on the next open), then closes every other {@link AutoCloseable} this instance
   * obtained (store, index, embedder, chat model, and any closeable component the injector built,
   * a user's channel included), each once, the last built first. Components bound as instances
   * ({@link Builder}) are closed too. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      resources.close();
    }
  }

  private void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("this Lychee instance is closed");
    }
  }

  /** Assembles Lychee from instances, without writing a Guice module. */
  public static final class Builder {
    private Embedder embedder;
    private RecordStore store;
    private VectorIndex vectors;
    private ChatModel chatModel;
    private LycheeConfig config = LycheeConfig.defaults();
    private final List<Module> extra = new ArrayList<>();

    private Builder() {}

    /** The embedder (required). */
    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    /** The record store (default: in-memory). */
    public Builder store(RecordStore s) {
      this.store = s;
      return this;
    }

    /** The vector index (default: exact, in-memory). */
    public Builder vectors(VectorIndex v) {
      this.vectors = v;
      return this;
    }

    /** A chat model, enabling the LLM encoder, planner and answerer (per configuration). */
    public Builder chatModel(ChatModel c) {
      this.chatModel = c;
      return this;
    }

    public Builder config(LycheeConfig c) {
      this.config = Objects.requireNonNull(c, "config");
      return this;
    }

    /** Further Guice modules, applied last (for example custom recall channels). */
    public Builder module(Module m) {
      extra.add(Objects.requireNonNull(m, "module"));
      return this;
    }

    public Lychee build() {
      if (embedder == null) {
        throw new LycheeException("Lychee.builder() needs an embedder: call .embedder(...)");
      }
      Embedder e = embedder;
      RecordStore s = store;
      VectorIndex v = vectors;
      ChatModel c = chatModel;
      List<Module> modules = new ArrayList<>();
      modules.add(new AbstractModule() {
        @Override
        protected void configure() {
          bind(Embedder.class).toInstance(e);
          if (s != null) {
            bind(RecordStore.class).toInstance(CheckedRecordStore.of(s));
          }
          if (v != null) {
            bind(VectorIndex.class).toInstance(v);
          }
          if (c != null) {
            bind(ChatModel.class).toInstance(c);
          }
        }
      });
      modules.addAll(extra);
      return create(config, modules.toArray(Module[]::new));
    }
  }
}
