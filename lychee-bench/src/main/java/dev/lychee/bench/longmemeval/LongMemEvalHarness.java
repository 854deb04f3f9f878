package dev.lychee.bench.longmemeval;

import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.EvalSystem;
import dev.lychee.bench.systems.EvidenceItem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs LongMemEval retrieval: each question's haystack goes into a fresh namespace, the question
 * is recalled once, and the cited turns (in evidence order) give the turn ranking; the sessions of
 * those turns, in order of first appearance, give the session ranking. Gold sessions are
 * {@code answer_session_ids}; gold turns are the turns marked {@code has_answer}.
 *
 * <p>Unlike the official turn-level corpus, which indexes user turns only, the systems here see
 * every turn, since that is what a memory is given.
 */
public final class LongMemEvalHarness {
  static final String RECALL_ANY = "recall_any";
  static final String RECALL_ALL = "recall_all";
  static final String NDCG_ANY = "ndcg_any";

  private final List<Integer> ks;
  private final int depth;
  private final Progress progress;

  public LongMemEvalHarness(List<Integer> ks, int depth, Progress progress) {
    this.ks = List.copyOf(ks);
    this.depth = Math.max(depth, ks.stream().mapToInt(Integer::intValue).max().orElse(1));
    this.progress = Objects.requireNonNull(progress, "progress");
  }

  public LongMemEvalResult run(List<LongMemEvalItem> items, List<EvalSystem> systems) {
    List<LongMemEvalItem> evaluated = items.stream().filter(i -> !i.isAbstention()).toList();
    List<LongMemEvalResult.SystemScores> out = new ArrayList<>();
    for (EvalSystem system : systems) {
      Sums session = new Sums();
      Sums turn = new Sums();
      progress.start("longmemeval " + system.name(), evaluated.size());
      for (LongMemEvalItem item : evaluated) {
        String ns = "lme-" + item.questionId();
        system.ingest(ns, sessions(item));
        List<EvidenceItem> evidence;
        try {
          evidence = system.recall(ns, item.question(), depth);
        } finally {
          system.forget(ns);
        }
        List<String> turnRanking = turnRanking(evidence);
        session.add(sessionRanking(evidence), item.answerSessionIds());
        List<String> goldTurns = goldTurns(item);
        if (!goldTurns.isEmpty()) {
          turn.add(turnRanking, goldTurns);
        }
        progress.step();
      }
      progress.done(evaluated.size() + " questions");
      out.add(new LongMemEvalResult.SystemScores(system.name(), session.means(), turn.means(), turn.n));
    }
    return new LongMemEvalResult(evaluated.size(), items.size() - evaluated.size(), out);
  }

  /** The haystack as evaluation sessions; empty turns are left out but keep their indices. */
  public static List<EvalSession> sessions(LongMemEvalItem item) {
    List<EvalSession> out = new ArrayList<>();
    for (LmeSession s : item.sessions()) {
      List<Turn> turns = new ArrayList<>();
      for (int i = 0; i < s.turns().size(); i++) {
        LmeTurn t = s.turns().get(i);
        if (!t.content().isBlank()) {
          turns.add(new Turn(t.role(), null, t.content(), i, null));
        }
      }
      out.add(new EvalSession(s.id(), s.date(), turns));
    }
    return out;
  }

  static String turnId(TurnRef ref) {
    return ref.session() + "#" + ref.index();
  }

  static List<String> goldTurns(LongMemEvalItem item) {
    List<String> out = new ArrayList<>();
    for (LmeSession s : item.sessions()) {
      for (int i = 0; i < s.turns().size(); i++) {
        if (s.turns().get(i).hasAnswer()) {
          out.add(turnId(TurnRef.of(s.id(), i)));
        }
      }
    }
    return out;
  }

  static List<String> turnRanking(List<EvidenceItem> evidence) {
    Set<String> out = new LinkedHashSet<>();
    evidence.forEach(e -> e.turns().forEach(t -> out.add(turnId(t))));
    return new ArrayList<>(out);
  }

  static List<String> sessionRanking(List<EvidenceItem> evidence) {
    Set<String> out = new LinkedHashSet<>();
    evidence.forEach(e -> e.turns().forEach(t -> out.add(t.session())));
    return new ArrayList<>(out);
  }

  private final class Sums {
    final Map<String, Map<Integer, Double>> sums = new TreeMap<>();
    int n;

    void add(List<String> ranking, List<String> gold) {
      n++;
      for (int k : ks) {
        sums.computeIfAbsent(RECALL_ANY, x -> new TreeMap<>()).merge(k, RetrievalMetrics.recallAny(ranking, gold, k), Double::sum);
        sums.computeIfAbsent(RECALL_ALL, x -> new TreeMap<>()).merge(k, RetrievalMetrics.recallAll(ranking, gold, k), Double::sum);
        sums.computeIfAbsent(NDCG_ANY, x -> new TreeMap<>()).merge(k, RetrievalMetrics.ndcgAny(ranking, gold, k), Double::sum);
      }
    }

    Map<String, Map<Integer, Double>> means() {
      Map<String, Map<Integer, Double>> out = new TreeMap<>();
      sums.forEach((m, byK) -> {
        Map<Integer, Double> means = new TreeMap<>();
        byK.forEach((k, v) -> means.put(k, v / n));
        out.put(m, means);
      });
      return out;
    }
  }
}
