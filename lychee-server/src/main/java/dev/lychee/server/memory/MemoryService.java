package dev.lychee.server.memory;

import dev.lychee.api.Answer;
import dev.lychee.api.Evidence;
import dev.lychee.api.Forgotten;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.QueueFullException;
import dev.lychee.api.TurnConflictException;
import dev.lychee.api.Recall;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.Lychee;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.server.api.AnswerView;
import dev.lychee.server.api.Deleted;
import dev.lychee.server.api.EncodeView;
import dev.lychee.server.api.EvidenceView;
import dev.lychee.server.api.IdleView;
import dev.lychee.server.api.NodeView;
import dev.lychee.server.api.Page;
import dev.lychee.server.api.PlanView;
import dev.lychee.server.api.QueryRequest;
import dev.lychee.server.api.RecallView;
import dev.lychee.server.api.RecordView;
import dev.lychee.server.api.SegmentView;
import dev.lychee.server.api.SessionView;
import dev.lychee.server.api.StatusView;
import dev.lychee.server.api.TurnInput;
import dev.lychee.server.api.TurnView;
import dev.lychee.server.api.NamespaceView;
import dev.lychee.server.api.TurnsAccepted;
import dev.lychee.server.api.TurnsRequest;
import dev.lychee.server.api.UsageView;
import dev.lychee.server.api.WireTimes;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.ProblemCode;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every front end of the server (REST, MCP, mem0) does with the memory: one place that
 * turns wire requests into {@link Lychee} calls and library results into wire views, and that
 * answers 404 for namespaces and sessions that hold nothing. Namespaces are always passed in
 * explicitly by a caller that has already checked the key's scope.
 */
public final class MemoryService {
  private final Lychee memory;
  private final TokenCounter counter;
  private final EvidenceTokens evidenceTokens;

  public MemoryService(Lychee memory, TokenCounter counter) {
    this.memory = Objects.requireNonNull(memory, "memory");
    this.counter = Objects.requireNonNull(counter, "counter");
    this.evidenceTokens = new EvidenceTokens(counter);
  }

  public Lychee memory() {
    return memory;
  }

  // ---- writing ----

  /** Stores turns (raw turns are committed before anything else) and encodes closed segments. */
  public TurnsAccepted addTurns(String ns, String session, TurnsRequest req) {
    Names.check("namespace", ns);
    Names.check("session", session);
    List<Turn> turns = req.turns().stream().map(TurnInput::toTurn).toList();
    int maxChars = memory.config().maxTurnChars();
    for (Turn t : turns) {
      if (t.text().length() > maxChars) {
        throw new ApiException(ProblemCode.INVALID_REQUEST, "a turn is longer than " + maxChars + " characters");
      }
    }
    LocalDateTime date = WireTimes.parse("session_date", req.sessionDate());
    IngestResult r;
    try {
      r = memory.append(ns, session, date, turns);
      if (req.flushRequested()) {
        r = r.plus(memory.flush(ns, session));
      }
    } catch (QueueFullException e) {
      throw queueFull(e);
    } catch (TurnConflictException e) {
      throw new ApiException(ProblemCode.TURN_CONFLICT, e.getMessage());
    }
    return new TurnsAccepted(ns, session, turns.size(), r.turnsStored(), r.segmentsClosed(), r.segmentsQueued(),
        r.segmentsEncoded(),
        pendingSegments(ns), r.recordsWritten(), r.errors());
  }

  /** Closes the session's open segment and encodes it. */
  public TurnsAccepted flush(String ns, String session) {
    requireSession(ns, session);
    IngestResult r;
    try {
      r = memory.flush(ns, session);
    } catch (QueueFullException e) {
      throw queueFull(e);
    }
    return new TurnsAccepted(ns, session, 0, 0, r.segmentsClosed(), r.segmentsQueued(), r.segmentsEncoded(),
        pendingSegments(ns),
        r.recordsWritten(), r.errors());
  }

  /** Retries (or, with background encoding, queues) the pending segments of the namespace. */
  public EncodeView encodePending(String ns) {
    requireNamespace(ns);
    IngestResult r = memory.encodePending(ns);
    return new EncodeView(ns, r.segmentsEncoded(), r.segmentsQueued(), r.errors());
  }

  // ---- reading ----

  public RecallView recall(String ns, QueryRequest q) {
    return recall(ns, q, RecallObserver.NONE);
  }

  /** The same recall, with every stage reporting to {@code observer} (the inspector's trace). */
  public RecallView recall(String ns, QueryRequest q, RecallObserver observer) {
    requireNamespace(ns);
    Question question = question(ns, q);
    Recall r = memory.recall(question, observer);
    List<Evidence> ev = r.evidence();
    return new RecallView(ns, q.question(), question.k(), q.tokenBudget(), question.askedAt(), PlanView.of(r.plan()),
        views(ev), evidenceTokens.count(ev), r.elapsedNanos() / 1e6);
  }

  /** Answers from recalled evidence; with a token budget the answerer sees only evidence within it. */
  public AnswerView answer(String ns, QueryRequest q) {
    requireNamespace(ns);
    Answer a = memory.answer(question(ns, q));
    List<Evidence> ev = a.evidence();
    return new AnswerView(ns, q.question(), a.text(), PlanView.of(a.plan()), views(ev),
        evidenceTokens.count(ev), UsageView.of(a.usage()));
  }

  /** The namespace's status; 404 when it holds no turns. */
  public StatusView status(String ns) {
    requireNamespace(ns);
    return statusOf(ns);
  }

  /** The status of a namespace that may be empty (MCP reports an empty memory rather than failing). */
  public StatusView statusOf(String ns) {
    Names.check("namespace", ns);
    return StatusView.of(memory.status(ns), memory.store().sessions(ns).size(), memory.store().records(ns).size());
  }

  /**
   * Waits at most {@code timeout} for the namespace's background encoding to drain, then reports
   * whether it did, with the status at that moment.
   */
  public IdleView awaitIdle(String ns, Duration timeout) {
    requireNamespace(ns);
    long t0 = System.nanoTime();
    boolean idle = memory.awaitIdle(ns, timeout);
    long waited = (System.nanoTime() - t0) / 1_000_000;
    return new IdleView(ns, idle, waited, timeout.toMillis(), statusOf(ns));
  }

  public Page<SessionView> sessions(String ns, int offset, int limit) {
    requireNamespace(ns);
    List<String> all = memory.store().sessions(ns);
    Page<String> names = Page.of(all, offset, limit);
    List<SessionView> items = names.items().stream()
        .map(s -> new SessionView(s, memory.store().nextTurnIndex(ns, s))).toList();
    return new Page<>(items, names.offset(), names.limit(), names.total(), names.nextOffset());
  }

  /** Segments of the namespace, or of one session when {@code session} is not null. */
  public Page<SegmentView> segments(String ns, String session, int offset, int limit) {
    requireNamespace(ns);
    return Page.of(memory.store().segments(ns).stream()
        .filter(s -> session == null || s.segment().session().equals(session))
        .map(SegmentView::of).toList(), offset, limit);
  }

  /** Records of the namespace, or those first written from one segment when {@code segment} is not null. */
  public Page<RecordView> records(String ns, String segment, int offset, int limit) {
    requireNamespace(ns);
    return Page.of(memory.store().records(ns).stream()
        .filter(r -> segment == null || r.segmentId().equals(segment))
        .map(RecordView::of).toList(), offset, limit);
  }

  /** The stored turns of a session, by index. */
  public Page<TurnView> turns(String ns, String session, int offset, int limit) {
    requireSession(ns, session);
    return Page.of(memory.store().turns(ns, session).stream().map(TurnView::of).toList(), offset, limit);
  }

  /** The namespaces that hold turns and that {@code visible} lets through, by name. */
  public Page<NamespaceView> namespaces(java.util.function.Predicate<String> visible, int offset, int limit) {
    List<NamespaceView> all = memory.store().namespaces().stream().filter(visible).sorted()
        .map(n -> new NamespaceView(n, memory.store().countTurns(n))).toList();
    return Page.of(all, offset, limit);
  }

  /** Nodes of one kind, or of every kind when {@code kind} is null. */
  public Page<NodeView> nodes(String ns, String kind, int offset, int limit) {
    requireNamespace(ns);
    List<NodeKind> kinds = kind == null ? List.of(NodeKind.values()) : List.of(nodeKind(kind));
    List<NodeView> all = new ArrayList<>();
    for (NodeKind k : kinds) {
      memory.store().nodes(ns, k).forEach(n -> all.add(NodeView.of(n)));
    }
    return Page.of(all, offset, limit);
  }

  // ---- deleting ----

  public Deleted forget(String ns) {
    requireNamespace(ns);
    Forgotten f = memory.forget(ns);
    return new Deleted(ns, null, f.turnIds().size(), f.recordIds().size(), f.nodeIds().size());
  }

  public Deleted forget(String ns, String session) {
    requireSession(ns, session);
    Forgotten f = memory.forget(ns, session);
    return new Deleted(ns, session, f.turnIds().size(), f.recordIds().size(), f.nodeIds().size());
  }

  // ---- checks ----

  /** 404 unless the namespace holds at least one turn. */
  public void requireNamespace(String ns) {
    Names.check("namespace", ns);
    if (memory.store().countTurns(ns) == 0) {
      throw new ApiException(ProblemCode.NAMESPACE_NOT_FOUND, "namespace '" + ns + "' holds no turns");
    }
  }

  /** True when the namespace holds at least one turn. */
  public boolean exists(String ns) {
    return memory.store().countTurns(Names.check("namespace", ns)) > 0;
  }

  void requireSession(String ns, String session) {
    requireNamespace(ns);
    Names.check("session", session);
    if (memory.store().nextTurnIndex(ns, session) == 0) {
      throw new ApiException(ProblemCode.SESSION_NOT_FOUND, "session '" + session + "' of namespace '" + ns + "' holds no turns");
    }
  }

  /** 429 with the encoder's hint as {@code Retry-After} (whole seconds, at least 1); nothing of the call was stored. */
  static ApiException queueFull(QueueFullException e) {
    long seconds = Math.max(1, (e.retryAfter() == null ? 1000 : e.retryAfter().toMillis() + 999) / 1000);
    return new ApiException(ProblemCode.QUEUE_FULL, e.getMessage(), Map.of("Retry-After", Long.toString(seconds)));
  }

  private long pendingSegments(String ns) {
    return memory.store().segments(ns).stream().filter(s -> s.state() == SegmentState.PENDING).count();
  }

  /**
   * The library question: {@code k} (default {@link Question#DEFAULT_K}) and, when given, the token
   * budget, which the library meets by choosing what to return (with a budget, k is the least depth).
   */
  private static Question question(String ns, QueryRequest q) {
    int k = q.k() != null ? q.k() : Question.DEFAULT_K;
    Question question = new Question(ns, q.question(), k, WireTimes.parse("asked_at", q.askedAt()));
    return q.tokenBudget() == null ? question : question.withTokenBudget(q.tokenBudget());
  }

  private static NodeKind nodeKind(String kind) {
    for (NodeKind k : NodeKind.values()) {
      if (k.wireName().equalsIgnoreCase(kind) || k.name().equalsIgnoreCase(kind)) {
        return k;
      }
    }
    throw new ApiException(ProblemCode.INVALID_REQUEST, "unknown node kind '" + kind + "' (expected "
        + Arrays.stream(NodeKind.values()).map(NodeKind::wireName).toList() + ")");
  }

  /** Wire views of evidence, each with the tokens of its own text. */
  private List<EvidenceView> views(List<Evidence> ev) {
    List<EvidenceView> out = new ArrayList<>(ev.size());
    for (int i = 0; i < ev.size(); i++) {
      out.add(EvidenceView.of(ev.get(i), counter.count(ev.get(i).text())));
    }
    return out;
  }
}
