package dev.lychee.bench.systems;

import com.google.inject.Module;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.answer.EvidenceFormatter;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.llm.O200kTokenCounter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The project's own recall pipeline through the {@link Lychee} facade, offline (no chat model):
 * every session is appended with its date and flushed; a question is recalled with depth
 * {@code min(depth, maxK)}; each evidence item cites the turns of {@link Evidence#turns()} and is
 * serialised exactly as the answer prompt shows it ({@link EvidenceFormatter#item(Evidence)}), so
 * its tokens need no allowance.
 *
 * <p>The recall depth is capped at the largest k of the run because Lychee's channel budgets and
 * selection pool grow with k: asking for 100 items would evaluate another configuration than the
 * one a caller gets at k = 20. Token budgets are therefore walked over at most that many items.
 *
 * <p>Questions are asked with the date of the conversation's last session as time basis (the
 * questions are posed after the conversation), so relative dates resolve as a user would mean them.
 */
public final class LycheeSystem implements EvalSystem {
  private final String name;
  private final Lychee lychee;
  private final int maxK;
  private final EvidenceFormatter formatter = new EvidenceFormatter();
  private final EvidenceTokens evidenceTokens = new EvidenceTokens(new O200kTokenCounter(), formatter);
  private final Map<String, LocalDateTime> lastSessionDate = new HashMap<>();
  private final List<String> ingestErrors = new ArrayList<>();

  private final ScratchDirectory storeDir;

  /** A Lychee on the in-memory store. */
  public LycheeSystem(String name, Embedder embedder, LycheeConfig config, int maxK) {
    this(name, embedder, config, maxK, StoreChoice.MEMORY);
  }

  /**
   * @param maxK the largest evidence depth ever asked for (the run's largest k)
   * @param store where records and vectors live; file stores go to a temporary directory that
   *     {@link #close()} deletes
   */
  public LycheeSystem(String name, Embedder embedder, LycheeConfig config, int maxK, StoreChoice store) {
    this(name, embedder, config, maxK, store, List.of());
  }

  /**
   * @param overrides Guice modules applied over Lychee's bindings (an ablation's stage overrides)
   */
  public LycheeSystem(String name, Embedder embedder, LycheeConfig config, int maxK, StoreChoice store,
      List<Module> overrides) {
    this.name = Objects.requireNonNull(name, "name");
    if (maxK < 1) {
      throw new IllegalArgumentException("maxK must be >= 1");
    }
    this.maxK = maxK;
    Lychee.Builder builder = Lychee.builder().embedder(embedder).config(config);
    if (store == StoreChoice.MEMORY) {
      this.storeDir = null;
    } else {
      try {
        this.storeDir = ScratchDirectory.create("lychee-bench-" + store.name().toLowerCase(java.util.Locale.ROOT));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    try {
      if (storeDir != null) {
        builder.module(store.module(storeDir.path()));
      }
      overrides.forEach(builder::module);
      this.lychee = builder.build();
    } catch (RuntimeException e) {
      // a store that cannot start (PostgreSQL without LYCHEE_PG_URL, a bad directory) leaves no scratch directory
      if (storeDir != null) {
        storeDir.close();
      }
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void ingest(String namespace, List<EvalSession> sessions) {
    ingest(namespace, sessions, () -> {});
  }

  @Override
  public void ingest(String namespace, List<EvalSession> sessions, Runnable afterSession) {
    int queued = 0;
    for (EvalSession s : sessions) {
      IngestResult appended = lychee.append(namespace, s.id(), s.date(), s.turns());
      IngestResult flushed = lychee.flush(namespace, s.id());
      queued += appended.segmentsQueued() + flushed.segmentsQueued();
      ingestErrors.addAll(appended.errors());
      ingestErrors.addAll(flushed.errors());
      if (s.date() != null) {
        lastSessionDate.merge(namespace, s.date(), (a, b) -> a.isAfter(b) ? a : b);
      }
      afterSession.run();
    }
    // an LLM encoder encodes in the background: evaluation starts once every segment is encoded
    if (queued > 0) {
      if (!lychee.awaitIdle(namespace, java.time.Duration.ofHours(2))) {
        ingestErrors.add("background encoding of " + namespace + " did not finish within 2 h");
      }
      lychee.status(namespace).pendingByKind().forEach((kind, n) -> ingestErrors.add(n + " segments left pending: " + kind));
    }
    // an ingest ends when the store is idle too: a Lucene store's deferred commit and the merges it
    // started ran on into the recalls timed after it (round twenty-four, docs/measurements.md §6)
    Duration quiet = Duration.ofMinutes(10);
    if (!lychee.store().awaitQuiet(quiet) || !lychee.vectors().awaitQuiet(quiet)) {
      ingestErrors.add("the store's background work after ingesting " + namespace + " did not end within 10 min");
    }
  }

  @Override
  public List<EvidenceItem> recall(String namespace, String question, int depth) {
    return recall(namespace, question, depth, dev.lychee.api.spi.RecallObserver.NONE);
  }

  /** The same recall, with the pipeline's stages reported to {@code observer} (for stage timings). */
  public List<EvidenceItem> recall(String namespace, String question, int depth,
      dev.lychee.api.spi.RecallObserver observer) {
    int k = Math.max(1, Math.min(depth, maxK));
    Recall r = lychee.recall(new Question(namespace, question, k, lastSessionDate.get(namespace)), observer);
    return items(r);
  }

  /**
   * Asks for evidence within {@code tokenBudget} tokens, at the run's depth as the least depth;
   * the serialised size is counted the way the answer prompt is ({@link EvidenceTokens}).
   */
  @Override
  public java.util.Optional<BudgetedRecall> recallWithin(String namespace, String question, int tokenBudget) {
    Question q = new Question(namespace, question, maxK, lastSessionDate.get(namespace)).withTokenBudget(tokenBudget);
    Recall r = lychee.recall(q);
    return java.util.Optional.of(new BudgetedRecall(items(r), evidenceTokens.count(r.evidence())));
  }

  private List<EvidenceItem> items(Recall r) {
    List<EvidenceItem> out = new ArrayList<>(r.evidence().size());
    for (Evidence e : r.evidence()) {
      out.add(new EvidenceItem(e.turns(), formatter.item(e), 0));
    }
    return out;
  }

  /** Encoder or segment errors reported by ingest so far (segments left pending). */
  public List<String> ingestErrors() {
    return List.copyOf(ingestErrors);
  }

  @Override
  public void forget(String namespace) {
    lychee.forget(namespace);
    lastSessionDate.remove(namespace);
  }

  @Override
  public void close() {
    try {
      lychee.close();
    } finally {
      if (storeDir != null) {
        storeDir.close();
      }
    }
  }
}
