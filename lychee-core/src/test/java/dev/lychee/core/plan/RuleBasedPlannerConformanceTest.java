package dev.lychee.core.plan;

import dev.lychee.api.spi.QueryPlanner;

/** The offline rule-based planner against the planner contract. */
class RuleBasedPlannerConformanceTest extends dev.lychee.core.conformance.BaseQueryPlannerTestCase {
  @Override
  protected QueryPlanner newPlanner() {
    return new RuleBasedPlanner();
  }
}
