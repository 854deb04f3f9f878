package dev.lychee.core.plan;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.QueryPlanner;

/**
 * The planner that does not plan: one route holding the question as it was asked, no type, no date
 * filter (the evaluation's "no planner" variant binds it). Stateless; never calls an LLM.
 */
public final class SingleRoutePlanner implements QueryPlanner {
  @Override
  public RecallPlan plan(Question question) {
    return RecallPlan.singleRoute(question.text());
  }
}
