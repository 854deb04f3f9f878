package dev.lychee.core.read;

import static dev.lychee.core.config.ConfigChecks.atLeast;

import dev.lychee.api.QuestionType;
import dev.lychee.core.fuse.FusionConfig;
import dev.lychee.core.plan.PlanRules;
import dev.lychee.core.recall.ChannelBudgets;
import dev.lychee.core.recall.ChannelWeights;
import dev.lychee.core.rerank.LatestFirstConfig;
import dev.lychee.core.rerank.RerankWeights;
import dev.lychee.core.select.BudgetConfig;
import dev.lychee.core.select.MmrConfig;
import dev.lychee.core.strategy.StrategyProfile;
import dev.lychee.core.strategy.Strategies;
import java.util.Objects;

/**
 * The read side's settings in one immutable value: it only gathers the configuration each stage
 * owns (strategies, channel budgets and weights, score boosts, source windows, fusion, reranking,
 * MMR) plus the two settings of the pipeline itself, so that one object can be handed to
 * {@link RetrievalModule}. Every default and where it comes from is listed in docs/defaults.md.
 * Experiments that switch stages off (the evaluation's ablations) are module overrides in
 * {@code lychee-bench}, not settings here.
 */
public final class RetrievalConfig {
  private final Strategies strategies;
  private final ChannelBudgets budgets;
  private final ChannelWeights weights;
  private final ScoreBoosts boosts;
  private final WindowConfig windows;
  private final FusionConfig fusion;
  private final RerankWeights rerank;
  private final boolean reranker;
  private final LatestFirstConfig latestFirst;
  private final MmrConfig mmr;
  private final BudgetConfig budget;
  private final PlanRules plan;
  private final int maxVariants;
  private final int maxEmbeddedVariants;
  private final int earlyChannelThreads;

  private RetrievalConfig(Builder b) {
    strategies = b.strategies;
    budgets = b.budgets;
    weights = b.weights;
    boosts = b.boosts;
    windows = b.windows;
    fusion = b.fusion;
    rerank = b.rerank;
    reranker = b.reranker;
    latestFirst = b.latestFirst;
    mmr = b.mmr;
    budget = b.budget;
    plan = b.plan;
    maxVariants = atLeast("RetrievalConfig", "maxVariants", b.maxVariants, 1);
    maxEmbeddedVariants = atLeast("RetrievalConfig", "maxEmbeddedVariants", b.maxEmbeddedVariants, 0);
    earlyChannelThreads = atLeast("RetrievalConfig", "earlyChannelThreads", b.earlyChannelThreads, 0);
  }

  /** The reference defaults. */
  public static RetrievalConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder().strategies(strategies).budgets(budgets).weights(weights).boosts(boosts)
        .windows(windows).fusion(fusion).rerank(rerank).reranker(reranker).latestFirst(latestFirst).mmr(mmr).budget(budget)
        .plan(plan).maxVariants(maxVariants).maxEmbeddedVariants(maxEmbeddedVariants).earlyChannelThreads(earlyChannelThreads);
  }

  /** The per-question-type strategies. */
  public Strategies strategies() {
    return strategies;
  }

  /** The strategy of a question type. */
  public StrategyProfile strategy(QuestionType type) {
    return strategies.of(type);
  }

  public ChannelBudgets budgets() {
    return budgets;
  }

  public ChannelWeights weights() {
    return weights;
  }

  public ScoreBoosts boosts() {
    return boosts;
  }

  public WindowConfig windows() {
    return windows;
  }

  public FusionConfig fusion() {
    return fusion;
  }

  /** The feature reranker's weights. */
  public RerankWeights rerank() {
    return rerank;
  }

  /**
   * Whether the built-in feature reranker runs (on by default; see {@link RerankWeights} for the
   * measurement). Off binds a reranker that keeps the fused order.
   */
  public boolean reranker() {
    return reranker;
  }

  /**
   * The latest-first rule the feature reranker applies to questions about the present
   * (docs/defaults.md §4.16; off by default, {@link LatestFirstConfig#on()}); it runs only with the
   * reranker on.
   */
  public LatestFirstConfig latestFirst() {
    return latestFirst;
  }

  public MmrConfig mmr() {
    return mmr;
  }

  /** How questions with a token budget are searched and selected. */
  public BudgetConfig budget() {
    return budget;
  }

  /** Which routes the rule-based planner makes (issue 20.2). */
  public PlanRules plan() {
    return plan;
  }

  /** The most query variants a route searches with (docs/defaults.md §4.2). */
  public int maxVariants() {
    return maxVariants;
  }

  /**
   * The most distinct query variants embedded per plan (docs/defaults.md §4.2): 1 by default, the
   * question only; 0 embeds every variant. With a bound the first ones in route order get a vector
   * (the question always does); the rest are searched only by the channels that match words
   * (lexical). On the LoCoMo dev half the question alone recalled as much as all variants
   * (R@10 .837 against .823) for a third of the query embeddings. A plan of several routes (one per
   * person) has each route's goal embedded as well, beyond the bound, so that its routes do not all
   * search by vector with the question alone. The bound applies to plans made
   * without a model (the rule-based planner's, {@link dev.lychee.api.RecallPlan#usage()} zero): a
   * model planner's queries are embedded all, as the design has them searched by vector (not
   * measured here, where no model runs).
   */
  public int maxEmbeddedVariants() {
    return maxEmbeddedVariants;
  }

  /**
   * Threads that make the plan and then run the channels needing no vectors (lexical, temporal
   * range) while the question is embedded (docs/defaults.md §4.5); 0 plans first and runs every
   * channel after the query batch, in turn, on the recalling thread. The hits are the same either way.
   */
  public int earlyChannelThreads() {
    return earlyChannelThreads;
  }

  @Override
  public String toString() {
    return "RetrievalConfig[" + strategies + ", " + budgets + ", " + weights + ", " + boosts + ", " + windows + ", "
        + fusion + ", " + rerank + ", reranker=" + reranker + ", " + latestFirst + ", " + mmr + ", " + budget + ", " + plan
        + ", maxVariants=" + maxVariants + ", maxEmbeddedVariants=" + maxEmbeddedVariants + ", earlyChannelThreads=" + earlyChannelThreads + "]";
  }

  /** Builder; every part starts at its default. */
  public static final class Builder {
    private Strategies strategies = Strategies.defaults();
    private ChannelBudgets budgets = ChannelBudgets.defaults();
    private ChannelWeights weights = ChannelWeights.defaults();
    private ScoreBoosts boosts = ScoreBoosts.defaults();
    private WindowConfig windows = WindowConfig.defaults();
    private FusionConfig fusion = FusionConfig.defaults();
    private RerankWeights rerank = RerankWeights.defaults();
    private boolean reranker = true;
    private LatestFirstConfig latestFirst = LatestFirstConfig.defaults();
    private MmrConfig mmr = MmrConfig.defaults();
    private BudgetConfig budget = BudgetConfig.defaults();
    private PlanRules plan = PlanRules.defaults();
    private int maxVariants = 8;
    // measured, docs/defaults.md §4.2: the vector channels did as well with the question alone
    private int maxEmbeddedVariants = 1;
    private int earlyChannelThreads = Math.min(2, Math.max(0, Runtime.getRuntime().availableProcessors() - 1));

    private Builder() {}

    public Builder strategies(Strategies s) {
      strategies = Objects.requireNonNull(s, "strategies");
      return this;
    }

    /** Replaces the profile of one question type. */
    public Builder strategy(QuestionType type, StrategyProfile profile) {
      strategies = strategies.with(type, profile);
      return this;
    }

    public Builder budgets(ChannelBudgets b) {
      budgets = Objects.requireNonNull(b, "budgets");
      return this;
    }

    public Builder weights(ChannelWeights w) {
      weights = Objects.requireNonNull(w, "weights");
      return this;
    }

    public Builder boosts(ScoreBoosts b) {
      boosts = Objects.requireNonNull(b, "boosts");
      return this;
    }

    public Builder windows(WindowConfig w) {
      windows = Objects.requireNonNull(w, "windows");
      return this;
    }

    public Builder fusion(FusionConfig f) {
      fusion = Objects.requireNonNull(f, "fusion");
      return this;
    }

    public Builder rerank(RerankWeights r) {
      rerank = Objects.requireNonNull(r, "rerank");
      return this;
    }

    /** Turns the built-in reranker on or off, keeping its weights. */
    public Builder reranker(boolean enabled) {
      reranker = enabled;
      return this;
    }

    /** The latest-first rule for questions about the present ({@link LatestFirstConfig#on()} to switch it on). */
    public Builder latestFirst(LatestFirstConfig l) {
      latestFirst = Objects.requireNonNull(l, "latestFirst");
      return this;
    }

    public Builder mmr(MmrConfig m) {
      mmr = Objects.requireNonNull(m, "mmr");
      return this;
    }

    public Builder budget(BudgetConfig b) {
      budget = Objects.requireNonNull(b, "budget");
      return this;
    }

    public Builder plan(PlanRules p) {
      plan = Objects.requireNonNull(p, "plan");
      return this;
    }

    public Builder maxVariants(int n) {
      maxVariants = n;
      return this;
    }

    /**
     * The most distinct query variants embedded per plan, {@code >= 1}, the question always among
     * them (default 1: the question only); 0 embeds every variant.
     */
    public Builder maxEmbeddedVariants(int n) {
      maxEmbeddedVariants = n;
      return this;
    }

    /**
     * Threads for the channels that need no vectors, run while the query batch is embedded
     * (default: one fewer than the cores, at most 2; 0: after the batch, on the recalling thread).
     */
    public Builder earlyChannelThreads(int n) {
      earlyChannelThreads = n;
      return this;
    }

    public RetrievalConfig build() {
      return new RetrievalConfig(this);
    }
  }
}
