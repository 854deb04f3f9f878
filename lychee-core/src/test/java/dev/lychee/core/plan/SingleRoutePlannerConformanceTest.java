package dev.lychee.core.plan;

import dev.lychee.api.spi.QueryPlanner;

/** The planner that does not plan, against the planner contract. */
class SingleRoutePlannerConformanceTest extends dev.lychee.core.conformance.BaseQueryPlannerTestCase {
  @Override
  protected QueryPlanner newPlanner() {
    return new SingleRoutePlanner();
  }
}
