package dev.lychee.core.recall;

import dev.lychee.api.QuestionType;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Every retrieval parameter in one immutable value: strategies per question type (§4.3), budgets
 * (§4.4), channel weights (§4.5), boosts (§4.6), fusion (§4.10), MMR (§4.11), reranker weights,
 * source windows (§4.7) and ablation switches. Built with {@link #builder()}; {@link #defaults()}
 * are the reference values. Validated once, at construction.
 *
 * @param strategies one profile per question type (all types present)
 * @param budgets candidate budgets
 * @param weights channel score weights
 * @param boosts per-route score boosts
 * @param fusion cross-route fusion constants
 * @param mmr selection constants
 * @param rerank reranker switch and feature weights
 * @param windows source-window switches
 * @param ablations ablation switches (all off by default)
 */
public record RetrievalConfig(
    Map<QuestionType, StrategyProfile> strategies,
    Budgets budgets,
    ChannelWeights weights,
    Boosts boosts,
    Fusion fusion,
    Mmr mmr,
    Rerank rerank,
    Windows windows,
    Ablations ablations) {

  public RetrievalConfig {
    EnumMap<QuestionType, StrategyProfile> copy = new EnumMap<>(QuestionType.class);
    copy.putAll(Objects.requireNonNull(strategies, "strategies"));
    for (QuestionType t : QuestionType.values()) {
      if (!copy.containsKey(t)) {
        throw new IllegalArgumentException("no strategy profile for question type " + t);
      }
    }
    strategies = Map.copyOf(copy);
    Objects.requireNonNull(budgets, "budgets");
    Objects.requireNonNull(weights, "weights");
    Objects.requireNonNull(boosts, "boosts");
    Objects.requireNonNull(fusion, "fusion");
    Objects.requireNonNull(mmr, "mmr");
    Objects.requireNonNull(rerank, "rerank");
    Objects.requireNonNull(windows, "windows");
    Objects.requireNonNull(ablations, "ablations");
  }

  /** The reference defaults. */
  public static RetrievalConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder pre-filled with this configuration's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.strategies.putAll(strategies);
    b.budgets = budgets;
    b.weights = weights;
    b.boosts = boosts;
    b.fusion = fusion;
    b.mmr = mmr;
    b.rerank = rerank;
    b.windows = windows;
    b.ablations = ablations;
    return b;
  }

  /** The strategy of a question type. */
  public StrategyProfile strategy(QuestionType type) {
    return strategies.get(type == null ? QuestionType.SINGLE : type);
  }

  /** The reference profiles of §4.3 (aggregate with the values that take effect). */
  public static Map<QuestionType, StrategyProfile> defaultStrategies() {
    EnumMap<QuestionType, StrategyProfile> m = new EnumMap<>(QuestionType.class);
    StrategyProfile single = new StrategyProfile(1.0, 1.0, 1.0, 1.0, 0, 0, .40, .72, 1, 24, 1, 2800);
    m.put(QuestionType.SINGLE, single);
    m.put(QuestionType.OTHER, single);
    m.put(QuestionType.AGGREGATE, new StrategyProfile(1.55, 1.45, 1.0, 1.0, 0, 0, .40, .70, 1, 40, 1, 2800));
    m.put(QuestionType.TEMPORAL, new StrategyProfile(1.35, 1.30, 1.45, 1.0, 0, 0, .42, .64, 2, 28, 1, 3600));
    m.put(QuestionType.COMPARISON, new StrategyProfile(1.35, 1.30, 1.30, 1.0, 0, 0, .40, .66, 2, 28, 1, 3600));
    m.put(QuestionType.PERSONALIZED_ADVICE,
        new StrategyProfile(1.25, 1.20, 1.80, 1.05, .04, .08, .48, .62, 3, 28, 2, 5000));
    m.put(QuestionType.PRIOR_ASSISTANT_RESPONSE,
        new StrategyProfile(0.95, 0.95, 3.0, 1.22, .18, .04, .62, .52, 4, 32, 2, 7000));
    return m;
  }

  /**
   * Candidate budgets (§4.4), as functions of the depth {@code d = max(k, planDepth)}.
   *
   * @param planDepth the smallest depth budgets are computed for (the paper's k_plan = 15)
   * @param nodeFactor nodes per type: ⌊max(nodeFactor·d, nodeFloor)·λ_node⌋
   * @param nodeFloor see nodeFactor
   * @param recordFactor records: ⌊max(recordFactor·d, recordFloor)·λ_rec⌋, searched with at least recordSearchFloor
   * @param recordFloor see recordFactor
   * @param recordSearchFloor the smallest record search size
   * @param turnFloor raw turns: ⌊max(d, turnFloor)·λ_turn⌋
   * @param temporalFactor temporal nodes kept: max(temporalFactor·d, temporalFloor)
   * @param temporalFloor see temporalFactor
   * @param maxVariants the most query variants per route
   * @param lexicalLimit hits per lexical query and field
   */
  public record Budgets(int planDepth, int nodeFactor, int nodeFloor, int recordFactor, int recordFloor,
      int recordSearchFloor, int turnFloor, int temporalFactor, int temporalFloor, int maxVariants,
      int lexicalLimit) {
    public Budgets {
      if (planDepth < 1 || nodeFactor < 1 || nodeFloor < 1 || recordFactor < 1 || recordFloor < 1
          || recordSearchFloor < 1 || turnFloor < 1 || temporalFactor < 1 || temporalFloor < 1
          || maxVariants < 1 || lexicalLimit < 1) {
        throw new IllegalArgumentException("every budget must be >= 1");
      }
    }

    public static Budgets defaults() {
      return new Budgets(15, 3, 30, 3, 30, 20, 20, 10, 100, 8, 30);
    }

    /** The depth budgets are computed for. */
    public int depth(int k) {
      return Math.max(k, planDepth);
    }

    public int nodes(int k, StrategyProfile p) {
      return Math.max(1, (int) Math.floor(Math.max(nodeFactor * depth(k), nodeFloor) * p.nodeMultiplier()));
    }

    public int records(int k, StrategyProfile p) {
      int limit = (int) Math.floor(Math.max(recordFactor * depth(k), recordFloor) * p.recordMultiplier());
      return Math.max(limit, recordSearchFloor);
    }

    public int turns(int k, StrategyProfile p) {
      return Math.max(1, (int) Math.floor(Math.max(depth(k), turnFloor) * p.turnMultiplier()));
    }

    public int temporalNodes(int k) {
      return Math.max(temporalFactor * depth(k), temporalFloor);
    }
  }

  /**
   * Channel score weights (§4.5) and the lexical channel's mapping of a normalised BM25 score
   * {@code n} in [0, 1] to a field score {@code base + scale·n}.
   */
  public record ChannelWeights(double entity, double tag, double entityTag, double eventFrame,
      double temporalDay, double temporalMonth, double temporalOther,
      double recordBase, double recordScale, double rawBase, double rawScale,
      double lexicalTurnBase, double lexicalTurnScale, double lexicalRecordBase, double lexicalRecordScale) {
    public ChannelWeights {
      for (double w : new double[] {entity, tag, entityTag, eventFrame, temporalDay, temporalMonth,
          temporalOther, recordBase, recordScale, rawBase, rawScale, lexicalTurnBase, lexicalTurnScale,
          lexicalRecordBase, lexicalRecordScale}) {
        if (w < 0 || w > 1 || Double.isNaN(w)) {
          throw new IllegalArgumentException("channel weights lie in [0, 1]: " + w);
        }
      }
    }

    public static ChannelWeights defaults() {
      return new ChannelWeights(.34, .32, .38, .42, .42, .28, .34, .30, .30, .34, .42, .20, .30, .18, .30);
    }
  }

  /** Per-route additive boosts (§4.6): record bonuses per question type and the temporal boosts. */
  public record Boosts(double assistantRecord, double adviceRecord, double temporalRecord,
      double eventRecord, double temporalSpan, double sourceTime) {
    public Boosts {
      for (double b : new double[] {assistantRecord, adviceRecord, temporalRecord, eventRecord, temporalSpan, sourceTime}) {
        if (b < 0 || b > 1) {
          throw new IllegalArgumentException("boosts lie in [0, 1]: " + b);
        }
      }
    }

    public static Boosts defaults() {
      return new Boosts(.08, .05, .04, .03, .08, .04);
    }
  }

  /** Cross-route fusion (§4.10). */
  public record Fusion(int rrfK, int maxQuota, int rankDepthFactor, double bestWeight, double rrfWeight) {
    public Fusion {
      if (rrfK < 1 || maxQuota < 1 || rankDepthFactor < 1 || bestWeight < 0 || rrfWeight < 0) {
        throw new IllegalArgumentException("bad fusion constants");
      }
    }

    public static Fusion defaults() {
      return new Fusion(60, 4, 4, .82, .18);
    }
  }

  /**
   * MMR selection (§4.11) and the optional episode limiter (§4.12).
   *
   * @param enabled false selects the top k by fused score
   * @param relevance weight of the fused score
   * @param diversity weight of the similarity to already picked items
   * @param poolFactor the pool holds max(k, min(n, poolFactor·k)) items
   * @param session signature weight of "same session"
   * @param entities signature weight of entity Jaccard
   * @param queries signature weight of matched-query Jaccard
   * @param nodes signature weight of evidence-node Jaccard
   * @param turns signature weight of cited-turn Jaccard
   * @param tokens signature weight of text-token Jaccard
   * @param contained weight of the share of an item's cited turns (session-qualified) that an
   *     already picked item cites too: an item that shows no new turn adds no new evidence
   * @param episodeLimiter whether the episode limiter runs after MMR
   */
  public record Mmr(boolean enabled, double relevance, double diversity, int poolFactor, double session,
      double entities, double queries, double nodes, double turns, double tokens, double contained,
      boolean episodeLimiter) {
    public Mmr {
      if (relevance < 0 || diversity < 0 || poolFactor < 1) {
        throw new IllegalArgumentException("bad MMR constants");
      }
    }

    /**
     * Relevance .75 and diversity .15 (the reference uses .25; on the dev half .15 kept more of
     * the strongest evidence in the first thousand tokens while list questions still spread
     * over sessions).
     */
    public static Mmr defaults() {
      return new Mmr(true, .75, .15, 4, .15, .20, .15, .15, .10, .25, .50, false);
    }
  }

  /**
   * The feature reranker: whether the pipeline reranks, and the feature weights (normalised by
   * their sum).
   */
  public record Rerank(boolean enabled, double fused, double similarity, double lexical, double speaker,
      double temporal) {
    public Rerank {
      double sum = fused + similarity + lexical + speaker + temporal;
      if (fused < 0 || similarity < 0 || lexical < 0 || speaker < 0 || temporal < 0 || !(sum > 0)) {
        throw new IllegalArgumentException("rerank weights must be >= 0 with a positive sum");
      }
    }

    /**
     * On by default: on the LoCoMo dev half, this reranker together with MMR turn containment
     * lifted evidence recall@20 from 0.759 to 0.825 (the reference keeps its cross-encoder off);
     * raising the lexical weight from .14 to .35, with query terms weighted by their rarity in the
     * pool, added about .01 to recall@1000 tokens. Turn it off with {@code Builder.reranker(false)}; bind another
     * {@link dev.lychee.api.spi.Reranker} for a custom one.
     */
    public static Rerank defaults() {
      return new Rerank(true, .62, .10, .35, .10, .04);
    }

    public Rerank withEnabled(boolean on) {
      return new Rerank(on, fused, similarity, lexical, speaker, temporal);
    }
  }

  /**
   * Source windows (§4.7).
   *
   * @param enabled whether windows are built at all
   * @param maxTurns the most turns one window may show (windows are kept short because their
   *     text counts against token budgets)
   * @param rawAnchorsOnly build windows around raw-turn hits only (records already cite turns)
   * @param maxAnchors at most this many of a route's strongest items get a window (on top of the
   *     strategy's sa and k): windows pay off around strong anchors, while deeper in the ranking
   *     single items cover more distinct evidence per token
   * @param maxBefore at most this many turns before the anchor (the strategy's sw is the other cap)
   * @param extraAfter turns shown after the anchor beyond sw: in dialogue the answer to what the
   *     anchor raises tends to follow it
   * @param trimLineChars a window line longer than this keeps only its first sentence and the
   *     sentences that hold a query term, with {@code …} for what was left out (§4.7's keyword
   *     trimming, per line); 0 keeps every line whole
   */
  public record Windows(boolean enabled, int maxTurns, boolean rawAnchorsOnly, int maxAnchors, int maxBefore,
      int extraAfter, int trimLineChars) {
    public Windows {
      if (maxTurns < 1 || maxAnchors < 0 || maxBefore < 0 || extraAfter < 0 || trimLineChars < 0) {
        throw new IllegalArgumentException("maxTurns must be >= 1, the other window sizes >= 0");
      }
    }

    /**
     * Windows of at most 7 turns, one extra turn after the anchor, lines over 160 characters
     * trimmed. Measured on the LoCoMo dev half (offline, k = 20): going from 5 turns, no extra
     * turn and no trimming to these values moved recall@1000 tokens from about .80 to .84, most
     * of it from the trimming, which leaves more room in the budget for further items.
     */
    public static Windows defaults() {
      return new Windows(true, 7, false, 24, 4, 1, 160);
    }
  }

  /**
   * Ablation switches of the evaluation (all off by default).
   *
   * @param recordVectorOnly only the record-vector channel runs
   * @param noPlanner one route holding the question, no planner call
   * @param noFusionRerankDiversity routes merged by best score only; no reranker, no MMR
   * @param noRawTurns no raw-turn channel, no turn hits from the lexical channel, no windows
   */
  public record Ablations(boolean recordVectorOnly, boolean noPlanner, boolean noFusionRerankDiversity,
      boolean noRawTurns) {
    public static final Ablations NONE = new Ablations(false, false, false, false);
  }

  /** Builder; every field starts at its default. */
  public static final class Builder {
    private final EnumMap<QuestionType, StrategyProfile> strategies = new EnumMap<>(defaultStrategies());
    private Budgets budgets = Budgets.defaults();
    private ChannelWeights weights = ChannelWeights.defaults();
    private Boosts boosts = Boosts.defaults();
    private Fusion fusion = Fusion.defaults();
    private Mmr mmr = Mmr.defaults();
    private Rerank rerank = Rerank.defaults();
    private Windows windows = Windows.defaults();
    private Ablations ablations = Ablations.NONE;

    private Builder() {}

    public Builder strategy(QuestionType type, StrategyProfile profile) {
      strategies.put(Objects.requireNonNull(type), Objects.requireNonNull(profile));
      return this;
    }

    public Builder budgets(Budgets b) {
      this.budgets = b;
      return this;
    }

    public Builder weights(ChannelWeights w) {
      this.weights = w;
      return this;
    }

    public Builder boosts(Boosts b) {
      this.boosts = b;
      return this;
    }

    public Builder fusion(Fusion f) {
      this.fusion = f;
      return this;
    }

    public Builder mmr(Mmr m) {
      this.mmr = m;
      return this;
    }

    public Builder rerank(Rerank r) {
      this.rerank = r;
      return this;
    }

    /** Turns the reranker on or off, keeping its weights. */
    public Builder reranker(boolean enabled) {
      this.rerank = rerank.withEnabled(enabled);
      return this;
    }

    public Builder windows(Windows w) {
      this.windows = w;
      return this;
    }

    public Builder ablations(Ablations a) {
      this.ablations = a;
      return this;
    }

    public Builder recordVectorOnly(boolean on) {
      ablations = new Ablations(on, ablations.noPlanner(), ablations.noFusionRerankDiversity(), ablations.noRawTurns());
      return this;
    }

    public Builder noPlanner(boolean on) {
      ablations = new Ablations(ablations.recordVectorOnly(), on, ablations.noFusionRerankDiversity(), ablations.noRawTurns());
      return this;
    }

    public Builder noFusionRerankDiversity(boolean on) {
      ablations = new Ablations(ablations.recordVectorOnly(), ablations.noPlanner(), on, ablations.noRawTurns());
      return this;
    }

    public Builder noRawTurns(boolean on) {
      ablations = new Ablations(ablations.recordVectorOnly(), ablations.noPlanner(), ablations.noFusionRerankDiversity(), on);
      return this;
    }

    public RetrievalConfig build() {
      return new RetrievalConfig(strategies, budgets, weights, boosts, fusion, mmr, rerank, windows, ablations);
    }
  }
}
