package dev.lychee.core.strategy;

import static dev.lychee.core.config.ConfigChecks.atLeast;
import static dev.lychee.core.config.ConfigChecks.nonNegative;
import static dev.lychee.core.config.ConfigChecks.positive;

/**
 * How recall treats one question type (docs/defaults.md §4.3): candidate budget multipliers,
 * raw-turn scoring, the episode budget and the shape of source windows. Immutable; built with
 * {@link #builder()}, whose starting values are the profile of single-fact questions. Every stage
 * reads the profile of the plan's type, which is why it lives in a package below all of them.
 */
public final class StrategyProfile {
  private static final String OWNER = "StrategyProfile";

  private final double nodeMultiplier;
  private final double recordMultiplier;
  private final double turnMultiplier;
  private final double rawScoreMultiplier;
  private final double assistantBonus;
  private final double userBonus;
  private final double episodeRatio;
  private final double minEpisodeRatio;
  private final int sourceWindow;
  private final int sourceAnchors;
  private final int sourceMergeGap;
  private final int sourceMaxChars;

  private StrategyProfile(Builder b) {
    this.nodeMultiplier = positive(OWNER, "nodeMultiplier", b.nodeMultiplier);
    this.recordMultiplier = positive(OWNER, "recordMultiplier", b.recordMultiplier);
    this.turnMultiplier = positive(OWNER, "turnMultiplier", b.turnMultiplier);
    this.rawScoreMultiplier = positive(OWNER, "rawScoreMultiplier", b.rawScoreMultiplier);
    this.assistantBonus = nonNegative(OWNER, "assistantBonus", b.assistantBonus);
    this.userBonus = nonNegative(OWNER, "userBonus", b.userBonus);
    this.episodeRatio = nonNegative(OWNER, "episodeRatio", b.episodeRatio);
    this.minEpisodeRatio = nonNegative(OWNER, "minEpisodeRatio", b.minEpisodeRatio);
    this.sourceWindow = atLeast(OWNER, "sourceWindow", b.sourceWindow, 0);
    this.sourceAnchors = atLeast(OWNER, "sourceAnchors", b.sourceAnchors, 0);
    this.sourceMergeGap = atLeast(OWNER, "sourceMergeGap", b.sourceMergeGap, 0);
    this.sourceMaxChars = atLeast(OWNER, "sourceMaxChars", b.sourceMaxChars, 64);
  }

  /** A builder starting from the single-fact profile. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this profile's values. */
  public Builder toBuilder() {
    return new Builder().nodeMultiplier(nodeMultiplier).recordMultiplier(recordMultiplier)
        .turnMultiplier(turnMultiplier).rawScoreMultiplier(rawScoreMultiplier).assistantBonus(assistantBonus)
        .userBonus(userBonus).episodeRatio(episodeRatio).minEpisodeRatio(minEpisodeRatio)
        .sourceWindow(sourceWindow).sourceAnchors(sourceAnchors).sourceMergeGap(sourceMergeGap)
        .sourceMaxChars(sourceMaxChars);
  }

  /** λ_node: scales the per-kind evidence-node budget. */
  public double nodeMultiplier() {
    return nodeMultiplier;
  }

  /** λ_rec: scales the record budget. */
  public double recordMultiplier() {
    return recordMultiplier;
  }

  /** λ_turn: scales the raw-turn budget. */
  public double turnMultiplier() {
    return turnMultiplier;
  }

  /** μ_raw: multiplies the raw-turn score. */
  public double rawScoreMultiplier() {
    return rawScoreMultiplier;
  }

  /** β_a: added to the score of assistant turns. */
  public double assistantBonus() {
    return assistantBonus;
  }

  /** β_u: added to the score of user turns. */
  public double userBonus() {
    return userBonus;
  }

  /** ρ_ep: the share of k the episode limiter grants dialogue items. */
  public double episodeRatio() {
    return episodeRatio;
  }

  /** ρ_min: the episode score floor, relative to the best record. */
  public double minEpisodeRatio() {
    return minEpisodeRatio;
  }

  /** sw: neighbouring turns on each side of a window anchor. */
  public int sourceWindow() {
    return sourceWindow;
  }

  /** sa: the most anchors that get a window. */
  public int sourceAnchors() {
    return sourceAnchors;
  }

  /** sg: windows of one session closer than this many turns merge. */
  public int sourceMergeGap() {
    return sourceMergeGap;
  }

  /** sc: the most characters a window's text may hold. */
  public int sourceMaxChars() {
    return sourceMaxChars;
  }

  @Override
  public String toString() {
    return "StrategyProfile[node=" + nodeMultiplier + ", record=" + recordMultiplier + ", turn=" + turnMultiplier
        + ", raw=" + rawScoreMultiplier + ", assistantBonus=" + assistantBonus + ", userBonus=" + userBonus
        + ", episodeRatio=" + episodeRatio + ", minEpisodeRatio=" + minEpisodeRatio + ", window=" + sourceWindow
        + ", anchors=" + sourceAnchors + ", mergeGap=" + sourceMergeGap + ", maxChars=" + sourceMaxChars + "]";
  }

  /** Builder; {@link #build()} validates every value. */
  public static final class Builder {
    private double nodeMultiplier = 1.0;
    private double recordMultiplier = 1.0;
    private double turnMultiplier = 1.0;
    private double rawScoreMultiplier = 1.0;
    private double assistantBonus;
    private double userBonus;
    private double episodeRatio = .40;
    private double minEpisodeRatio = .72;
    private int sourceWindow = 1;
    private int sourceAnchors = 24;
    private int sourceMergeGap = 1;
    private int sourceMaxChars = 2800;

    private Builder() {}

    public Builder nodeMultiplier(double v) {
      nodeMultiplier = v;
      return this;
    }

    public Builder recordMultiplier(double v) {
      recordMultiplier = v;
      return this;
    }

    public Builder turnMultiplier(double v) {
      turnMultiplier = v;
      return this;
    }

    public Builder rawScoreMultiplier(double v) {
      rawScoreMultiplier = v;
      return this;
    }

    public Builder assistantBonus(double v) {
      assistantBonus = v;
      return this;
    }

    public Builder userBonus(double v) {
      userBonus = v;
      return this;
    }

    public Builder episodeRatio(double v) {
      episodeRatio = v;
      return this;
    }

    public Builder minEpisodeRatio(double v) {
      minEpisodeRatio = v;
      return this;
    }

    public Builder sourceWindow(int v) {
      sourceWindow = v;
      return this;
    }

    public Builder sourceAnchors(int v) {
      sourceAnchors = v;
      return this;
    }

    public Builder sourceMergeGap(int v) {
      sourceMergeGap = v;
      return this;
    }

    public Builder sourceMaxChars(int v) {
      sourceMaxChars = v;
      return this;
    }

    public StrategyProfile build() {
      return new StrategyProfile(this);
    }
  }
}
