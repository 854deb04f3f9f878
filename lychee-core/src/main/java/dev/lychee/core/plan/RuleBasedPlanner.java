package dev.lychee.core.plan;

import dev.lychee.api.Constraint;
import dev.lychee.api.DateRange;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.QueryPlanner;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The offline planner: the question type from its wording, the question plus focused variants as
 * queries (the named people kept in every one), explicit dates and ranges as a temporal filter,
 * and one route per named person when a comparison or a list spans several people. Which of these
 * it makes is set by its {@link PlanRules}.
 */
public final class RuleBasedPlanner implements QueryPlanner {
  /** The most queries a route gets. */
  static final int MAX_QUERIES = 8;
  /** The fewest content words besides names a focused variant must keep. */
  static final int MIN_FOCUS_WORDS = 2;

  /**
   * A temporal question asking for a point in time ("when did ...", "what year ...", "which
   * month ..."): its one route searches with the question alone (docs/defaults.md §4.15, round 12).
   * Its variants restate the event without the question word, and on the lexical channel they reach
   * turns that share the event's words but not its date; a duration or frequency question ("how
   * long", "how often") and a single fact typed temporal by "first"/"last" keep their variants.
   */
  private static final Pattern POINT_IN_TIME = Pattern.compile(
      "^\\s*when\\b|\\b(what|which) (date|day|year|month|week)\\b", Pattern.CASE_INSENSITIVE);

  private final PlanRules rules;

  /** The planner with the default rules. */
  public RuleBasedPlanner() {
    this(PlanRules.defaults());
  }

  @Inject
  public RuleBasedPlanner(PlanRules rules) {
    this.rules = java.util.Objects.requireNonNull(rules, "rules");
  }

  @Override
  public RecallPlan plan(Question question) {
    String text = question.text().strip();
    QuestionType type = QuestionTypes.classify(text);
    if (rules.singleRouteTypes().contains(type)) {
      return new RecallPlan(QuestionType.SINGLE, "rules: " + type.wireName() + ", single route by configuration",
          List.of(RecallRoute.simple("r1", text)), null, TokenUsage.ZERO);
    }
    PlanRules.Hypothetical hypotheticalRule = rules.hypothetical();
    boolean hypothetical = hypotheticalRule != PlanRules.Hypothetical.TYPED && QuestionForms.hypothetical(text);
    if (hypothetical && hypotheticalRule == PlanRules.Hypothetical.SINGLE_ROUTE) {
      return new RecallPlan(QuestionType.SINGLE, "rules: " + type.wireName() + ", hypothetical form, single route",
          List.of(RecallRoute.simple("r1", text)), null, TokenUsage.ZERO);
    }
    // A supposition searches with the question alone (docs/defaults.md §4.15, round 15): its
    // variants restate the supposed act ("Dana enjoy cooking class"), and on the lexical channel
    // they reach turns about the act's words rather than the turns the inference rests on.
    boolean questionOnly = hypothetical && (hypotheticalRule == PlanRules.Hypothetical.QUESTION_ONLY
        || QuestionForms.yesNo(text));
    DateRange filter = rules.dateFilters() ? QuestionDates.filter(text).orElse(null) : null;
    List<String> names = QuestionQueries.names(text);
    List<Constraint> constraints = new ArrayList<>();
    names.forEach(n -> constraints.add(new Constraint(Constraint.Kind.ENTITY, n)));
    if (filter != null) {
      constraints.add(new Constraint(Constraint.Kind.TIME, filter.toString()));
    }

    List<RecallRoute> routes = new ArrayList<>();
    // Per-person routes keep their variants: each restates the topic for one person.
    boolean variants = rules.queryVariants(type) && !questionOnly
        && !(type == QuestionType.TEMPORAL && POINT_IN_TIME.matcher(text).find());
    boolean perPerson = rules.perPersonRoutes() && names.size() >= 2
        && (type == QuestionType.COMPARISON || type == QuestionType.AGGREGATE || mentionsTogether(text, names));
    if (perPerson) {
      String topic = QuestionQueries.without(QuestionQueries.declarative(text), names);
      int i = 1;
      for (String n : names) {
        List<String> one = List.of(n);
        String goal = n + ": " + topic;
        routes.add(new RecallRoute("r" + i++, goal, queries(n + " " + topic, one, rules.queryVariants(type)),
            List.of(new Constraint(Constraint.Kind.ENTITY, n)), filter));
      }
    } else {
      routes.add(new RecallRoute("r1", text, queries(text, names, variants), constraints, filter));
    }
    return new RecallPlan(type, "rules: " + type.wireName() + (perPerson ? ", one route per person" : ""),
        routes, filter, TokenUsage.ZERO);
  }

  /** "X and Y", "X or Y": two people asked about together. */
  private static boolean mentionsTogether(String text, List<String> names) {
    String low = text.toLowerCase(Locale.ROOT);
    for (int i = 0; i + 1 < names.size(); i++) {
      String a = names.get(i).toLowerCase(Locale.ROOT);
      String b = names.get(i + 1).toLowerCase(Locale.ROOT);
      if (low.matches(".*\\b" + a + "('s)?\\s+(and|or|&)\\s+" + b + "\\b.*")) {
        return true;
      }
    }
    return false;
  }

  /** The question, its declarative form, its content words and its key phrases, names kept. */
  static List<String> queries(String text, List<String> names) {
    return queries(text, names, true);
  }

  /** With {@code variants} false, the question alone. */
  static List<String> queries(String text, List<String> names, boolean variants) {
    Map<String, String> out = new LinkedHashMap<>();
    add(out, text, names);
    if (!variants) {
      return new ArrayList<>(out.values());
    }
    String decl = QuestionQueries.declarative(text);
    add(out, QuestionQueries.withNames(decl, names), names);
    add(out, QuestionQueries.withNames(QuestionQueries.contentWords(text), names), names);
    List<String> nameLow = names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    for (String phrase : QuestionQueries.phrases(decl)) {
      if (out.size() >= MAX_QUERIES) {
        break;
      }
      String stripped = QuestionQueries.without(phrase, names);
      if (stripped.isBlank() || nameLow.contains(stripped.toLowerCase(Locale.ROOT))) {
        continue;
      }
      add(out, QuestionQueries.withNames(stripped, names), names);
    }
    return new ArrayList<>(out.values()).subList(0, Math.min(MAX_QUERIES, out.size()));
  }

  private static void add(Map<String, String> out, String q, List<String> names) {
    Optional.ofNullable(q).map(String::strip).filter(s -> !s.isEmpty())
        .filter(s -> out.isEmpty() || focused(s, names))
        .ifPresent(s -> out.putIfAbsent(s.toLowerCase(Locale.ROOT), s));
  }

  /**
   * Whether a variant still says enough besides the names: with a single other word an embedding
   * of it is dominated by the name and matches any short turn that names the person.
   */
  static boolean focused(String variant, List<String> names) {
    java.util.Set<String> words = new java.util.LinkedHashSet<>(dev.lychee.core.text.Terms.content(variant));
    names.forEach(n -> words.remove(dev.lychee.core.text.Terms.stem(n.toLowerCase(Locale.ROOT))));
    return words.size() >= MIN_FOCUS_WORDS;
  }
}
