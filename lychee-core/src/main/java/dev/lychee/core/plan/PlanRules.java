package dev.lychee.core.plan;

import dev.lychee.api.QuestionType;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which parts of a plan the {@link RuleBasedPlanner} makes, so that each kind of route earns its
 * place by measurement (issue 20.2): per-person routes for comparisons and lists over several
 * people, date filters from explicit dates, focused query variants, and the question types that get
 * the plain single-route plan instead of a typed one. Immutable. The defaults and the measurement
 * behind them are in docs/defaults.md (planner).
 */
public final class PlanRules {
  private final boolean perPersonRoutes;
  private final boolean dateFilters;
  private final boolean queryVariants;
  private final Set<QuestionType> singleRouteTypes;

  private PlanRules(Builder b) {
    perPersonRoutes = b.perPersonRoutes;
    dateFilters = b.dateFilters;
    queryVariants = b.queryVariants;
    singleRouteTypes = Set.copyOf(b.singleRouteTypes);
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
    return b;
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

  @Override
  public String toString() {
    return "PlanRules[perPersonRoutes=" + perPersonRoutes + ", dateFilters=" + dateFilters + ", queryVariants="
        + queryVariants + ", singleRouteTypes=" + singleRouteTypes + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private boolean perPersonRoutes = true;
    private boolean dateFilters = true;
    private boolean queryVariants = true;
    private Set<QuestionType> singleRouteTypes = EnumSet.noneOf(QuestionType.class);

    private Builder() {}

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
