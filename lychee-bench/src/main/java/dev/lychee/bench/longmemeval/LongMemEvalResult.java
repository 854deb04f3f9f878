package dev.lychee.bench.longmemeval;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LongMemEval retrieval results.
 *
 * @param questions questions evaluated (abstention questions excluded)
 * @param skippedAbstention abstention questions left out
 * @param systems per system: metric means at session and turn level
 */
public record LongMemEvalResult(int questions, int skippedAbstention, List<SystemScores> systems) {
  public LongMemEvalResult {
    systems = List.copyOf(systems);
  }

  /**
   * One system's means.
   *
   * @param session {@code recall_any}, {@code recall_all}, {@code ndcg_any} by k over sessions
   * @param turn the same over turns, among questions that mark at least one turn {@code has_answer}
   * @param turnQuestions how many questions the turn-level means are over
   */
  public record SystemScores(String system, Map<String, Map<Integer, Double>> session,
      Map<String, Map<Integer, Double>> turn, int turnQuestions) {
    public SystemScores {
      session = new TreeMap<>(session);
      turn = new TreeMap<>(turn);
    }
  }
}
