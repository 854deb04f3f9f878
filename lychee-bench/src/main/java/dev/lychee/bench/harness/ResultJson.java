package dev.lychee.bench.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.bench.metrics.MetricSummary;
import dev.lychee.bench.metrics.SystemResult;
import java.util.Map;

/**
 * The LoCoMo result as the contract JSON of issue 3:
 * {@code {"dataset":"locomo","questions":N,"skipped":S,"systems":{NAME:{"recall":{..},"hit":{..},
 * "tokens":{..},"recall_tokens":{..},"by_category":{"1":{"recall":{..},"hit":{..},"recall_tokens":{..}}}}}}},
 * plus, by budget, {@code contained_tokens} (answer containment of the prefix), {@code budget_recall},
 * {@code budget_contained} and {@code budget_tokens} (budget mode; empty objects for systems without
 * one) and {@code over_budget} (must be 0).
 */
public final class ResultJson {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultJson() {}

  public static String locomo(LocomoResult result) {
    ObjectNode root = JSON.createObjectNode();
    root.put("dataset", "locomo");
    root.put("questions", result.questions());
    root.put("skipped", result.skipped());
    ObjectNode systems = root.putObject("systems");
    for (SystemResult s : result.systems()) {
      ObjectNode node = systems.putObject(s.system());
      MetricSummary o = s.overall();
      put(node.putObject("recall"), o.recall());
      put(node.putObject("hit"), o.hit());
      put(node.putObject("tokens"), o.tokens());
      put(node.putObject("recall_tokens"), o.recallTokens());
      put(node.putObject("contained_tokens"), o.contained());
      put(node.putObject("budget_recall"), o.budgetRecall());
      put(node.putObject("budget_contained"), o.budgetContained());
      put(node.putObject("budget_tokens"), o.budgetTokens());
      node.put("over_budget", o.overBudget());
      ObjectNode byCat = node.putObject("by_category");
      s.byCategory().forEach((cat, m) -> {
        ObjectNode c = byCat.putObject(String.valueOf(cat));
        put(c.putObject("recall"), m.recall());
        put(c.putObject("hit"), m.hit());
        put(c.putObject("recall_tokens"), m.recallTokens());
        put(c.putObject("contained_tokens"), m.contained());
        put(c.putObject("budget_recall"), m.budgetRecall());
        put(c.putObject("budget_contained"), m.budgetContained());
      });
    }
    return write(root);
  }

  /**
   * LongMemEval retrieval: {@code {"dataset":"longmemeval","questions":N,"skipped_abstention":S,
   * "systems":{NAME:{"session":{"recall_any":{..},"recall_all":{..},"ndcg_any":{..}},"turn":{..},
   * "turn_questions":M}}}}.
   */
  public static String longMemEval(dev.lychee.bench.longmemeval.LongMemEvalResult result) {
    ObjectNode root = JSON.createObjectNode();
    root.put("dataset", "longmemeval");
    root.put("questions", result.questions());
    root.put("skipped_abstention", result.skippedAbstention());
    ObjectNode systems = root.putObject("systems");
    for (var s : result.systems()) {
      ObjectNode node = systems.putObject(s.system());
      ObjectNode session = node.putObject("session");
      s.session().forEach((metric, byK) -> put(session.putObject(metric), byK));
      ObjectNode turn = node.putObject("turn");
      s.turn().forEach((metric, byK) -> put(turn.putObject(metric), byK));
      node.put("turn_questions", s.turnQuestions());
    }
    return write(root);
  }

  static void put(ObjectNode node, Map<Integer, Double> values) {
    values.forEach((k, v) -> node.put(String.valueOf(k), round(v)));
  }

  /** Four decimals are plenty for means over hundreds of questions, and keep the file readable. */
  static double round(double v) {
    return Math.round(v * 10_000d) / 10_000d;
  }

  static String write(ObjectNode root) {
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
