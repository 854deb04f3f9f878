package dev.lychee.core.rerank;

import static dev.lychee.core.config.ConfigChecks.nonNegative;

/**
 * Feature weights of {@link FeatureReranker}, normalised by their sum (which must be positive).
 * Immutable.
 *
 * <p>Defaults: on the LoCoMo dev half this reranker together with MMR turn containment lifted
 * evidence recall@20 from 0.759 to 0.825 (the reference keeps its cross-encoder off); raising the
 * lexical weight from .14 to .35, with query terms weighted by their rarity in the pool, added
 * about .01 to recall@1000 tokens (docs/defaults.md §4.8). The similarity weight is .30 (from
 * .10), set together with the record-vector base (§4.5): records and raw turns are scored on
 * different field scales, and the embedding similarity is the feature they share.
 */
public final class RerankWeights {
  private static final String OWNER = "RerankWeights";

  private final double fused;
  private final double similarity;
  private final double lexical;
  private final double speaker;
  private final double temporal;

  private RerankWeights(Builder b) {
    fused = nonNegative(OWNER, "fused", b.fused);
    similarity = nonNegative(OWNER, "similarity", b.similarity);
    lexical = nonNegative(OWNER, "lexical", b.lexical);
    speaker = nonNegative(OWNER, "speaker", b.speaker);
    temporal = nonNegative(OWNER, "temporal", b.temporal);
    if (!(sum() > 0)) {
      throw new IllegalArgumentException(OWNER + ": the weights must have a positive sum");
    }
  }

  public static RerankWeights defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Weight of the fused score. */
  public double fused() {
    return fused;
  }

  /** Weight of the query–evidence embedding similarity. */
  public double similarity() {
    return similarity;
  }

  /** Weight of the rarity-weighted share of query terms the evidence holds. */
  public double lexical() {
    return lexical;
  }

  /** Weight of "the evidence is about a person the question names". */
  public double speaker() {
    return speaker;
  }

  /** Weight of "the evidence matches the plan's date filter". */
  public double temporal() {
    return temporal;
  }

  /** The sum every score is divided by. */
  public double sum() {
    return fused + similarity + lexical + speaker + temporal;
  }

  @Override
  public String toString() {
    return "RerankWeights[fused=" + fused + ", similarity=" + similarity + ", lexical=" + lexical + ", speaker="
        + speaker + ", temporal=" + temporal + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private double fused = .62;
    private double similarity = .30;
    private double lexical = .35;
    private double speaker = .10;
    private double temporal = .04;

    private Builder() {}

    public Builder fused(double v) {
      fused = v;
      return this;
    }

    public Builder similarity(double v) {
      similarity = v;
      return this;
    }

    public Builder lexical(double v) {
      lexical = v;
      return this;
    }

    public Builder speaker(double v) {
      speaker = v;
      return this;
    }

    public Builder temporal(double v) {
      temporal = v;
      return this;
    }

    public RerankWeights build() {
      return new RerankWeights(this);
    }
  }
}
