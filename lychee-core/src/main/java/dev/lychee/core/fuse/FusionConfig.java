package dev.lychee.core.fuse;

import static dev.lychee.core.config.ConfigChecks.atLeast;
import static dev.lychee.core.config.ConfigChecks.nonNegative;

/**
 * Constants of {@link RrfQuotaFuser} (docs/defaults.md §4.10). Immutable; {@link #defaults()} are the
 * reference values.
 */
public final class FusionConfig {
  private static final String OWNER = "FusionConfig";

  private final int rrfK;
  private final int maxQuota;
  private final int rankDepthFactor;
  private final double bestWeight;
  private final double rrfWeight;

  private FusionConfig(Builder b) {
    rrfK = atLeast(OWNER, "rrfK", b.rrfK, 1);
    maxQuota = atLeast(OWNER, "maxQuota", b.maxQuota, 1);
    rankDepthFactor = atLeast(OWNER, "rankDepthFactor", b.rankDepthFactor, 1);
    bestWeight = nonNegative(OWNER, "bestWeight", b.bestWeight);
    rrfWeight = nonNegative(OWNER, "rrfWeight", b.rrfWeight);
  }

  public static FusionConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The RRF constant: rank r adds {@code 1/(rrfK + r)}. */
  public int rrfK() {
    return rrfK;
  }

  /** The largest per-route quota. */
  public int maxQuota() {
    return maxQuota;
  }

  /** Ranks up to {@code rankDepthFactor·max(k, q)} count towards RRF. */
  public int rankDepthFactor() {
    return rankDepthFactor;
  }

  /** Weight of an id's best per-route score in the fused score. */
  public double bestWeight() {
    return bestWeight;
  }

  /** Weight of the normalised RRF sum in the fused score. */
  public double rrfWeight() {
    return rrfWeight;
  }

  @Override
  public String toString() {
    return "FusionConfig[rrfK=" + rrfK + ", maxQuota=" + maxQuota + ", rankDepthFactor=" + rankDepthFactor
        + ", bestWeight=" + bestWeight + ", rrfWeight=" + rrfWeight + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private int rrfK = 60;
    private int maxQuota = 4;
    private int rankDepthFactor = 4;
    private double bestWeight = .82;
    private double rrfWeight = .18;

    private Builder() {}

    public Builder rrfK(int v) {
      rrfK = v;
      return this;
    }

    public Builder maxQuota(int v) {
      maxQuota = v;
      return this;
    }

    public Builder rankDepthFactor(int v) {
      rankDepthFactor = v;
      return this;
    }

    public Builder bestWeight(double v) {
      bestWeight = v;
      return this;
    }

    public Builder rrfWeight(double v) {
      rrfWeight = v;
      return this;
    }

    public FusionConfig build() {
      return new FusionConfig(this);
    }
  }
}
