package dev.lychee.server.api;

import dev.lychee.api.DateRange;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import java.util.List;

/** The executed recall plan on the wire. */
public record PlanView(String type, String reason, List<RouteView> routes, DateRangeView temporalFilter, UsageView usage) {

  /** One route of the plan. */
  public record RouteView(String id, String goal, List<String> queries, DateRangeView temporalFilter) {}

  /** An inclusive date range. */
  public record DateRangeView(String start, String end) {
    static DateRangeView of(DateRange r) {
      return r == null ? null : new DateRangeView(String.valueOf(r.start()), String.valueOf(r.end()));
    }
  }

  public static PlanView of(RecallPlan p) {
    return new PlanView(p.type().wireName(), p.reason(),
        p.routes().stream().map(PlanView::route).toList(), DateRangeView.of(p.temporalFilter()), UsageView.of(p.usage()));
  }

  private static RouteView route(RecallRoute r) {
    return new RouteView(r.id(), r.goal(), r.queries(), DateRangeView.of(r.temporalFilter()));
  }
}
