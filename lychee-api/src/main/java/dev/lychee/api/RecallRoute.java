package dev.lychee.api;

import java.util.List;

/**
 * One recall route of a plan: an evidence goal with the queries that should find it.
 *
 * @param id route id, unique within its plan ({@code r1}, {@code r2}, ...)
 * @param goal what evidence this route should find, in words
 * @param queries the search queries, at least one, without duplicates
 * @param constraints constraints on the evidence
 * @param temporalFilter nullable date filter; temporal recall runs only when it is set
 */
public record RecallRoute(
    String id, String goal, List<String> queries, List<Constraint> constraints, DateRange temporalFilter) {

  public RecallRoute {
    Checks.nonBlank(id, "route id");
    goal = Checks.orEmpty(goal);
    queries = queries.stream().filter(q -> q != null && !q.isBlank()).distinct().toList();
    if (queries.isEmpty()) {
      throw new IllegalArgumentException("route " + id + " needs at least one query");
    }
    constraints = List.copyOf(constraints);
  }

  /** A single-query route without constraints. */
  public static RecallRoute simple(String id, String query) {
    return new RecallRoute(id, query, List.of(query), List.of(), null);
  }
}
