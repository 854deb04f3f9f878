package dev.lychee.core.plan;

import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.core.conformance.BaseQueryPlannerTestCase;
import dev.lychee.core.conformance.FixedReplyChatModel;
import org.junit.jupiter.api.Nested;

/** The LLM planner against the planner contract: with a valid reply, with garbage, with an outage. */
class LlmPlannerConformanceTest {
  private static final String PLAN = """
      {"reason": "a fact about a person", "question_type": "single",
       "semantic_queries": ["Dana Rome trip", "Dana hobbies"],
       "evidence_routes": [{"route_id": "r1", "evidence_goal": "what Dana did",
          "queries": ["Dana Rome", "Dana pottery"], "constraints": []},
        {"route_id": "r2", "evidence_goal": "when it happened", "queries": ["Dana trip date"]}]}
      """;

  @Nested
  class ValidReply extends BaseQueryPlannerTestCase {
    @Override
    protected QueryPlanner newPlanner() {
      return new LlmPlanner(new FixedReplyChatModel(PLAN), new RuleBasedPlanner());
    }
  }

  @Nested
  class GarbageReply extends BaseQueryPlannerTestCase {
    @Override
    protected QueryPlanner newPlanner() {
      return new LlmPlanner(new FixedReplyChatModel("I cannot help with that."), new RuleBasedPlanner());
    }
  }

  @Nested
  class ProviderOutage extends BaseQueryPlannerTestCase {
    @Override
    protected QueryPlanner newPlanner() {
      return new LlmPlanner(new FixedReplyChatModel(null), new RuleBasedPlanner());
    }
  }
}
