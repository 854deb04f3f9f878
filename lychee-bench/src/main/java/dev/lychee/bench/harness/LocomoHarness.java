package dev.lychee.bench.harness;

import dev.lychee.api.TurnRef;
import dev.lychee.bench.locomo.DiaId;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoQuestion;
import dev.lychee.bench.metrics.EvidenceScorer;
import dev.lychee.bench.metrics.QuestionScore;
import dev.lychee.bench.metrics.SystemResult;
import dev.lychee.bench.systems.BudgetedRecall;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.EvalSystem;
import dev.lychee.bench.systems.EvidenceItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs LoCoMo evidence recall (evaluation.md §2): every conversation is ingested into a fresh
 * namespace of every system, every evaluated question is recalled once to {@code depth} items, and
 * all k and prefix token-budget metrics are taken from prefixes of that one list. In budget mode a
 * system that sizes evidence itself is also asked once per budget B, and recall@B of that mode is
 * taken from exactly what it returned for B.
 */
public final class LocomoHarness {
  private final EvidenceScorer scorer;
  private final int depth;
  private final Progress progress;
  private final boolean budgetMode;

  /** A harness in both modes: prefix metrics for every system, budget mode where a system has one. */
  public LocomoHarness(EvidenceScorer scorer, int depth, Progress progress) {
    this(scorer, depth, progress, true);
  }

  /**
   * @param depth how many items to recall per question; at least the largest k, and deep enough
   *     that the largest token budget can be filled
   * @param budgetMode whether systems that size evidence to a budget themselves are also asked
   *     once per budget (evaluation.md §6); prefix metrics are always taken
   */
  public LocomoHarness(EvidenceScorer scorer, int depth, Progress progress, boolean budgetMode) {
    this.budgetMode = budgetMode;
    this.scorer = Objects.requireNonNull(scorer, "scorer");
    if (depth < scorer.maxK()) {
      throw new IllegalArgumentException("depth " + depth + " is below the largest k " + scorer.maxK());
    }
    this.depth = depth;
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  public LocomoResult run(List<LocomoConversation> conversations, List<EvalSystem> systems) {
    Map<String, List<QuestionScore>> scores = new LinkedHashMap<>();
    systems.forEach(s -> scores.put(s.name(), new ArrayList<>()));
    int questions = 0;
    int skipped = 0;
    for (LocomoConversation conv : conversations) {
      questions += conv.questions().size();
      skipped += conv.skipped();
      List<EvalSession> sessions = LocomoSessions.of(conv);
      String namespace = "locomo-" + conv.sampleId();
      for (EvalSystem system : systems) {
        scores.get(system.name()).addAll(runOne(conv, sessions, namespace, system));
      }
    }
    List<SystemResult> results = new ArrayList<>();
    scores.forEach((name, list) -> results.add(SystemResult.of(name, list)));
    return new LocomoResult(questions, skipped, scorer.ks(), scorer.budgets(), results);
  }

  private List<QuestionScore> runOne(
      LocomoConversation conv, List<EvalSession> sessions, String namespace, EvalSystem system) {
    String label = conv.sampleId() + " " + system.name();
    progress.start(label + " ingest", sessions.size());
    long t0 = System.nanoTime();
    system.ingest(namespace, sessions, progress::step);
    progress.done(conv.turnCount() + " turns ingested in " + seconds(t0));
    List<QuestionScore> out = new ArrayList<>();
    progress.start(label + " recall", conv.questions().size());
    long t1 = System.nanoTime();
    double recallSum = 0;
    int recallK = scorer.maxK();
    try {
      for (LocomoQuestion q : conv.questions()) {
        List<EvidenceItem> items = system.recall(namespace, q.question(), depth);
        List<TurnRef> gold = q.gold().stream().map(DiaId::toTurnRef).toList();
        Map<Integer, BudgetedRecall> budgeted = new LinkedHashMap<>();
        if (budgetMode) {
          for (int b : scorer.budgets()) {
            system.recallWithin(namespace, q.question(), b).ifPresent(r -> budgeted.put(b, r));
          }
        }
        QuestionScore s = scorer.score(q.category(), gold, items, q.answer(), budgeted);
        recallSum += s.recall().get(recallK);
        out.add(s);
        progress.step();
      }
    } finally {
      system.forget(namespace);
    }
    progress.done(String.format("%d questions in %s, R@%d %.3f", out.size(), seconds(t1), recallK,
        out.isEmpty() ? 0.0 : recallSum / out.size()));
    return out;
  }

  private static String seconds(long startNanos) {
    return String.format("%.1fs", (System.nanoTime() - startNanos) / 1e9);
  }
}
