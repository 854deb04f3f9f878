package dev.lychee.core.recall;

import static dev.lychee.core.config.ConfigChecks.atLeast;

import dev.lychee.core.strategy.StrategyProfile;

/**
 * How many candidates each built-in channel asks its index for (docs/defaults.md §4.4), as
 * functions of the depth {@code d = max(k, planDepth)} and the question type's multipliers.
 * Immutable; {@link #defaults()} are the reference values.
 */
public final class ChannelBudgets {
  private static final String OWNER = "ChannelBudgets";

  private final int planDepth;
  private final int nodeFactor;
  private final int nodeFloor;
  private final int recordFactor;
  private final int recordFloor;
  private final int recordSearchFloor;
  private final int turnFloor;
  private final int temporalFactor;
  private final int temporalFloor;
  private final int lexicalLimit;

  private ChannelBudgets(Builder b) {
    planDepth = atLeast(OWNER, "planDepth", b.planDepth, 1);
    nodeFactor = atLeast(OWNER, "nodeFactor", b.nodeFactor, 1);
    nodeFloor = atLeast(OWNER, "nodeFloor", b.nodeFloor, 1);
    recordFactor = atLeast(OWNER, "recordFactor", b.recordFactor, 1);
    recordFloor = atLeast(OWNER, "recordFloor", b.recordFloor, 1);
    recordSearchFloor = atLeast(OWNER, "recordSearchFloor", b.recordSearchFloor, 1);
    turnFloor = atLeast(OWNER, "turnFloor", b.turnFloor, 1);
    temporalFactor = atLeast(OWNER, "temporalFactor", b.temporalFactor, 1);
    temporalFloor = atLeast(OWNER, "temporalFloor", b.temporalFloor, 1);
    lexicalLimit = atLeast(OWNER, "lexicalLimit", b.lexicalLimit, 1);
  }

  /** The reference budgets. */
  public static ChannelBudgets defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The depth budgets are computed for: at least the plan depth (the reference's k_plan = 15). */
  public int depth(int k) {
    return Math.max(k, planDepth);
  }

  /** Nodes per kind: ⌊max(nodeFactor·d, nodeFloor)·λ_node⌋, at least 1. */
  public int nodes(int k, StrategyProfile p) {
    return Math.max(1, (int) Math.floor(Math.max(nodeFactor * depth(k), nodeFloor) * p.nodeMultiplier()));
  }

  /** Records: ⌊max(recordFactor·d, recordFloor)·λ_rec⌋, at least recordSearchFloor. */
  public int records(int k, StrategyProfile p) {
    int limit = (int) Math.floor(Math.max(recordFactor * depth(k), recordFloor) * p.recordMultiplier());
    return Math.max(limit, recordSearchFloor);
  }

  /** Raw turns: ⌊max(d, turnFloor)·λ_turn⌋, at least 1. */
  public int turns(int k, StrategyProfile p) {
    return Math.max(1, (int) Math.floor(Math.max(depth(k), turnFloor) * p.turnMultiplier()));
  }

  /** Temporal nodes kept: max(temporalFactor·d, temporalFloor). */
  public int temporalNodes(int k) {
    return Math.max(temporalFactor * depth(k), temporalFloor);
  }

  /** Hits per lexical query and field. */
  public int lexicalLimit() {
    return lexicalLimit;
  }

  @Override
  public String toString() {
    return "ChannelBudgets[planDepth=" + planDepth + ", node=" + nodeFactor + "/" + nodeFloor + ", record="
        + recordFactor + "/" + recordFloor + "/" + recordSearchFloor + ", turnFloor=" + turnFloor + ", temporal="
        + temporalFactor + "/" + temporalFloor + ", lexicalLimit=" + lexicalLimit + "]";
  }

  /** Builder; every value starts at its default and must be >= 1. */
  public static final class Builder {
    private int planDepth = 15;
    private int nodeFactor = 3;
    private int nodeFloor = 30;
    private int recordFactor = 3;
    private int recordFloor = 30;
    private int recordSearchFloor = 20;
    private int turnFloor = 20;
    private int temporalFactor = 10;
    private int temporalFloor = 100;
    private int lexicalLimit = 30;

    private Builder() {}

    /** The smallest depth budgets are computed for. */
    public Builder planDepth(int v) {
      planDepth = v;
      return this;
    }

    public Builder nodeFactor(int v) {
      nodeFactor = v;
      return this;
    }

    public Builder nodeFloor(int v) {
      nodeFloor = v;
      return this;
    }

    public Builder recordFactor(int v) {
      recordFactor = v;
      return this;
    }

    public Builder recordFloor(int v) {
      recordFloor = v;
      return this;
    }

    public Builder recordSearchFloor(int v) {
      recordSearchFloor = v;
      return this;
    }

    public Builder turnFloor(int v) {
      turnFloor = v;
      return this;
    }

    public Builder temporalFactor(int v) {
      temporalFactor = v;
      return this;
    }

    public Builder temporalFloor(int v) {
      temporalFloor = v;
      return this;
    }

    public Builder lexicalLimit(int v) {
      lexicalLimit = v;
      return this;
    }

    public ChannelBudgets build() {
      return new ChannelBudgets(this);
    }
  }
}
