package dev.lychee.core.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.Constraint;
import dev.lychee.api.DateRange;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.core.time.DateKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a planner reply into a clean {@link RecallPlan} (§4.1): caps on queries, routes and
 * constraints, unknown types read as single, unparseable filter dates dropped, and the route
 * defaults (no routes: one route from the plan; a route missing its id, goal, queries or filter
 * takes the plan's).
 */
final class PlanParser {
  static final int MAX_SEMANTIC_QUERIES = 16;
  static final int MAX_ROUTES = 8;
  static final int MAX_ROUTE_QUERIES = 8;
  static final int MAX_CONSTRAINTS = 12;

  private PlanParser() {}

  /** The plan in the reply, or empty when there is no JSON object in it. */
  static Optional<RecallPlan> parse(String reply, String question, TokenUsage usage) {
    Optional<JsonNode> json = PlanJson.object(reply);
    if (json.isEmpty()) {
      return Optional.empty();
    }
    JsonNode n = json.get();
    QuestionType type = QuestionType.parseOrSingle(text(n.get("question_type")));
    List<String> semantic = strings(n.get("semantic_queries"), MAX_SEMANTIC_QUERIES);
    DateRange filter = filter(n.get("temporal_filter"));
    String target = text(n.get("evidence_target"));
    List<String> targetConstraints = strings(n.get("evidence_constraints"), MAX_CONSTRAINTS);
    List<Constraint> constraints = constraints(n.get("constraints"));

    String defaultGoal = target.isBlank() ? question : target;
    List<String> defaultQueries = unique(concat(List.of(question), semantic, List.of(target), targetConstraints),
        MAX_SEMANTIC_QUERIES + 2);

    List<RecallRoute> routes = new ArrayList<>();
    JsonNode rs = n.get("evidence_routes");
    if (rs != null && rs.isArray()) {
      for (JsonNode r : rs) {
        if (routes.size() >= MAX_ROUTES) {
          break;
        }
        if (!r.isObject()) {
          continue;
        }
        String id = text(r.get("route_id"));
        if (id.isBlank() || routes.stream().anyMatch(x -> x.id().equals(text(r.get("route_id"))))) {
          id = "r" + (routes.size() + 1);
        }
        String goal = text(r.get("evidence_goal"));
        List<String> qs = strings(r.get("queries"), MAX_ROUTE_QUERIES);
        if (qs.isEmpty()) {
          qs = defaultQueries.subList(0, Math.min(MAX_ROUTE_QUERIES, defaultQueries.size()));
        }
        List<Constraint> rc = constraints(r.get("constraints"));
        DateRange rf = r.has("temporal_filter") && filter(r.get("temporal_filter")) != null
            ? filter(r.get("temporal_filter")) : filter;
        routes.add(new RecallRoute(id, goal.isBlank() ? defaultGoal : goal, qs, rc, rf));
      }
    }
    if (routes.isEmpty()) {
      routes.add(new RecallRoute("r1", defaultGoal,
          defaultQueries.subList(0, Math.min(MAX_ROUTE_QUERIES, defaultQueries.size())), constraints, filter));
    }
    return Optional.of(new RecallPlan(type, text(n.get("reason")), routes, filter, usage));
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() || n.isContainerNode() ? "" : n.asText("").strip();
  }

  private static List<String> strings(JsonNode n, int cap) {
    List<String> out = new ArrayList<>();
    if (n == null) {
      return out;
    }
    if (n.isTextual()) {
      String s = n.asText().strip();
      return s.isEmpty() ? out : List.of(s);
    }
    if (n.isArray()) {
      for (JsonNode e : n) {
        String s = text(e);
        if (!s.isEmpty()) {
          out.add(s);
        }
      }
    }
    return unique(out, cap);
  }

  private static List<Constraint> constraints(JsonNode n) {
    List<Constraint> out = new ArrayList<>();
    if (n == null || !n.isArray()) {
      return out;
    }
    for (JsonNode e : n) {
      if (out.size() >= MAX_CONSTRAINTS) {
        break;
      }
      String value = e.isObject() ? text(e.get("value")) : text(e);
      if (!value.isBlank()) {
        out.add(new Constraint(Constraint.Kind.parse(e.isObject() ? text(e.get("kind")) : "other"), value));
      }
    }
    return out;
  }

  /** {since, until} with dates that parse; null when neither does. */
  static DateRange filter(JsonNode n) {
    if (n == null || !n.isObject()) {
      return null;
    }
    // like the reference, only full dates count; anything vague or invalid is dropped
    java.time.LocalDate since = DateKeys.normalizeDateKey(text(n.get("since"))).orElse(null);
    java.time.LocalDate until = DateKeys.normalizeDateKey(text(n.get("until"))).orElse(null);
    if (since == null && until == null) {
      return null;
    }
    if (since != null && until != null && until.isBefore(since)) {
      return null;
    }
    return new DateRange(since, until);
  }

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    List<String> out = new ArrayList<>();
    for (List<String> l : lists) {
      out.addAll(l);
    }
    return out;
  }

  /** Casefold-unique, non-blank, in order, at most {@code cap}. */
  static List<String> unique(List<String> in, int cap) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String s : in) {
      if (s != null && !s.isBlank() && m.size() < cap) {
        m.putIfAbsent(s.strip().toLowerCase(Locale.ROOT), s.strip());
      }
    }
    return new ArrayList<>(m.values());
  }
}
