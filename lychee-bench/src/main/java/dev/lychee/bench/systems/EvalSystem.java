package dev.lychee.bench.systems;

import java.util.List;

/**
 * A memory system under evaluation: it ingests a conversation into a fresh namespace and recalls
 * evidence items for a question, best first. Implementations are used from one thread.
 */
public interface EvalSystem extends AutoCloseable {
  /** The name the harness reports, for example {@code bm25}. */
  String name();

  /** Ingests every session of one conversation into {@code namespace}, which is new. */
  void ingest(String namespace, List<EvalSession> sessions);

  /**
   * Like {@link #ingest(String, List)}, calling {@code afterSession} once per session as it is
   * done (for progress reporting). The default ingests everything, then reports every session.
   */
  default void ingest(String namespace, List<EvalSession> sessions, Runnable afterSession) {
    ingest(namespace, sessions);
    sessions.forEach(s -> afterSession.run());
  }

  /**
   * Recalls at most {@code depth} evidence items for {@code question}, in final order. The
   * harness takes prefixes of this one list for every k and every token budget.
   */
  List<EvidenceItem> recall(String namespace, String question, int depth);

  /**
   * Evidence selected for a token budget by the system itself (evaluation.md §6, budget mode), or
   * empty when the system has no budget of its own (the baselines: their recall@B stays the prefix
   * rule).
   */
  default java.util.Optional<BudgetedRecall> recallWithin(String namespace, String question, int tokenBudget) {
    return java.util.Optional.empty();
  }

  /** Drops the namespace's state (the harness calls it after each conversation). */
  void forget(String namespace);

  @Override
  default void close() {}
}
