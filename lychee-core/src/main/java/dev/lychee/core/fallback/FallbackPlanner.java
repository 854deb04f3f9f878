package dev.lychee.core.fallback;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.QueryPlanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the LLM planner turns to when its call fails or its answer is unusable: the rule-based
 * planner with one warning line (policy FALL_BACK), or a {@link LlmUnavailableException} (FAIL).
 */
public final class FallbackPlanner implements QueryPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(FallbackPlanner.class);

  private final QueryPlanner offline;
  private final FallbackConfig.LlmFailurePolicy policy;

  public FallbackPlanner(QueryPlanner offline, FallbackConfig.LlmFailurePolicy policy) {
    this.offline = offline;
    this.policy = policy;
  }

  @Override
  public RecallPlan plan(Question question) {
    if (policy == FallbackConfig.LlmFailurePolicy.FAIL) {
      throw new LlmUnavailableException("the LLM planner failed and the policy is FAIL (FallbackConfig.onLlmFailure)", null);
    }
    LOG.warn("the LLM planner failed; planned with the rule-based planner instead");
    return offline.plan(question);
  }
}
