package dev.lychee.core.plan;

import dev.lychee.api.QuestionType;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which parts of a plan the {@link RuleBasedPlanner} makes, so that each kind of route earns its
 * place by measurement (issue 20.2): per-person routes for comparisons and lists over several
 * people, date filters from explicit dates, focused query variants, the question types that get
 * the plain single-route plan instead of a typed one, and how questions in the hypothetical form
 * are searched. Immutable. The defaults and the measurement
 * behind them are in docs/defaults.md (planner).
 */
public final class PlanRules {
  private final boolean perPersonRoutes;
  private final boolean dateFilters;
  private final boolean queryVariants;
  private final Set<QuestionType> singleRouteTypes;
  private final Set<QuestionType> plainQueryTypes;
  private final Hypothetical hypothetical;

  /**
   * How a question in the hypothetical form is planned: one that asks for an inference, not a
   * stated fact ("Would Dana enjoy ...?", "What might Omar's degree be in?"; {@link QuestionForms}
   * tells the form by grammar). docs/defaults.md §4.15, round 15, has the measurement of each.
   */
  public enum Hypothetical {
    /** Planned like any other question of its type. */
    TYPED,
    /**
     * A yes/no question of the form ("Would Dana ...?", "Is it likely that ...?") searches with the
     * question alone, its type, filter and routes kept; a wh-question of the form is typed (the
     * default).
     */
    YES_NO_QUESTION_ONLY,
    /** Every question of the form searches with the question alone, its type, filter and routes kept. */
    QUESTION_ONLY,
    /** Every question of the form gets the single-route plan holding the question, as if no planner ran. */
    SINGLE_ROUTE
  }

  private PlanRules(Builder b) {
    perPersonRoutes = b.perPersonRoutes;
    dateFilters = b.dateFilters;
    queryVariants = b.queryVariants;
    singleRouteTypes = Set.copyOf(b.singleRouteTypes);
    plainQueryTypes = Set.copyOf(b.plainQueryTypes);
    hypothetical = b.hypothetical;
  }

  public static PlanRules defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these rules. */
  public Builder toBuilder() {
    Builder b = new Builder().perPersonRoutes(perPersonRoutes).dateFilters(dateFilters).queryVariants(queryVariants);
    b.singleRouteTypes = singleRouteTypes.isEmpty() ? EnumSet.noneOf(QuestionType.class) : EnumSet.copyOf(singleRouteTypes);
    return b.plainQueryTypes(plainQueryTypes).hypothetical(hypothetical);
  }

  /** One route per named person when a comparison or a list spans several people. */
  public boolean perPersonRoutes() {
    return perPersonRoutes;
  }

  /** An explicit date or range in the question becomes the plan's temporal filter. */
  public boolean dateFilters() {
    return dateFilters;
  }

  /** Routes search with focused variants (declarative form, content words, key phrases), not only the question. */
  public boolean queryVariants() {
    return queryVariants;
  }

  /** Question types whose plan is the single route holding the question (as if no planner ran). */
  public Set<QuestionType> singleRouteTypes() {
    return singleRouteTypes;
  }

  /**
   * Question types whose routes search with their question alone, without focused variants (the
   * rest of their plan is kept): the variant route type falls back where it does not pay.
   */
  public Set<QuestionType> plainQueryTypes() {
    return plainQueryTypes;
  }

  /** How a question in the hypothetical form is planned. */
  public Hypothetical hypothetical() {
    return hypothetical;
  }

  /** Whether routes for a question of {@code type} get focused query variants. */
  public boolean queryVariants(QuestionType type) {
    return queryVariants && !plainQueryTypes.contains(type);
  }

  @Override
  public String toString() {
    return "PlanRules[perPersonRoutes=" + perPersonRoutes + ", dateFilters=" + dateFilters + ", queryVariants="
        + queryVariants + ", singleRouteTypes=" + singleRouteTypes + ", plainQueryTypes=" + plainQueryTypes
        + ", hypothetical=" + hypothetical + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private boolean perPersonRoutes = true;
    private boolean dateFilters = true;
    private boolean queryVariants = true;
    private Set<QuestionType> singleRouteTypes = EnumSet.noneOf(QuestionType.class);
    private Set<QuestionType> plainQueryTypes = EnumSet.noneOf(QuestionType.class);
    private Hypothetical hypothetical = Hypothetical.YES_NO_QUESTION_ONLY;

    private Builder() {}

    /** How a question in the hypothetical form is planned. */
    public Builder hypothetical(Hypothetical v) {
      hypothetical = Objects.requireNonNull(v, "hypothetical");
      return this;
    }

    /** The question types whose routes search with the question alone (replaces the set). */
    public Builder plainQueryTypes(Set<QuestionType> types) {
      Objects.requireNonNull(types, "plainQueryTypes");
      types.forEach(t -> Objects.requireNonNull(t, "plainQueryTypes holds null"));
      plainQueryTypes = types.isEmpty() ? EnumSet.noneOf(QuestionType.class) : EnumSet.copyOf(types);
      return this;
    }

    public Builder perPersonRoutes(boolean v) {
      perPersonRoutes = v;
      return this;
    }

    public Builder dateFilters(boolean v) {
      dateFilters = v;
      return this;
    }

    public Builder queryVariants(boolean v) {
      queryVariants = v;
      return this;
    }

    /** The question types answered with the single-route plan (replaces the set). */
    public Builder singleRouteTypes(Set<QuestionType> types) {
      Objects.requireNonNull(types, "singleRouteTypes");
      types.forEach(t -> Objects.requireNonNull(t, "singleRouteTypes holds null"));
      singleRouteTypes = types.isEmpty() ? EnumSet.noneOf(QuestionType.class) : EnumSet.copyOf(types);
      return this;
    }

    public PlanRules build() {
      return new PlanRules(this);
    }
  }
}
