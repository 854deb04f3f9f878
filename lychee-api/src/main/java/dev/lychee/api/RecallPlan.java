package dev.lychee.api;

import java.util.List;
import java.util.Objects;

/**
 * A typed retrieval plan: what kind of question this is and which routes to recall along.
 *
 * @param type the question type
 * @param reason the planner's short reason (may be empty)
 * @param routes the routes, at least one, in plan order
 * @param temporalFilter the plan-level date filter; nullable
 * @param usage LLM tokens spent on planning ({@link TokenUsage#ZERO} for rule-based planners)
 */
public record RecallPlan(
    QuestionType type, String reason, List<RecallRoute> routes, DateRange temporalFilter, TokenUsage usage) {

  public RecallPlan {
    Objects.requireNonNull(type, "type");
    reason = Checks.orEmpty(reason);
    routes = List.copyOf(routes);
    if (routes.isEmpty()) {
      throw new IllegalArgumentException("a plan needs at least one route");
    }
    usage = usage == null ? TokenUsage.ZERO : usage;
  }

  /**
   * Whether the answer has several parts: an aggregate or comparison question, or a plan of several
   * routes. Budgeted selection fills such a plan's larger budgets with records (they reach more
   * sessions per token than source windows).
   */
  public boolean multiPart() {
    return type == QuestionType.AGGREGATE || type == QuestionType.COMPARISON || routes.size() > 1;
  }

  /** The fallback plan: one route holding the question itself. */
  public static RecallPlan singleRoute(String question) {
    return new RecallPlan(QuestionType.SINGLE, "fallback", List.of(RecallRoute.simple("r1", question)),
        null, TokenUsage.ZERO);
  }
}
