package dev.lychee.core.select;

import static dev.lychee.core.config.ConfigChecks.atLeast;
import static dev.lychee.core.config.ConfigChecks.nonNegative;

/**
 * Constants of {@link MmrSelector} (docs/defaults.md §4.11) and the switch of the episode limiter
 * (§4.12). The signature weights say how much each kind of overlap makes two items alike.
 * Immutable.
 *
 * <p>Relevance .75 and diversity .15: the reference uses .25 for diversity; on the LoCoMo dev half
 * .15 kept more of the strongest evidence in the first thousand tokens while list questions still
 * spread over sessions.
 */
public final class MmrConfig {
  private static final String OWNER = "MmrConfig";

  private final boolean enabled;
  private final double relevance;
  private final double diversity;
  private final int poolFactor;
  private final double session;
  private final double entities;
  private final double queries;
  private final double nodes;
  private final double turns;
  private final double tokens;
  private final double contained;
  private final boolean episodeLimiter;

  private MmrConfig(Builder b) {
    enabled = b.enabled;
    relevance = nonNegative(OWNER, "relevance", b.relevance);
    diversity = nonNegative(OWNER, "diversity", b.diversity);
    poolFactor = atLeast(OWNER, "poolFactor", b.poolFactor, 1);
    session = nonNegative(OWNER, "session", b.session);
    entities = nonNegative(OWNER, "entities", b.entities);
    queries = nonNegative(OWNER, "queries", b.queries);
    nodes = nonNegative(OWNER, "nodes", b.nodes);
    turns = nonNegative(OWNER, "turns", b.turns);
    tokens = nonNegative(OWNER, "tokens", b.tokens);
    contained = nonNegative(OWNER, "contained", b.contained);
    episodeLimiter = b.episodeLimiter;
  }

  public static MmrConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder().enabled(enabled).relevance(relevance).diversity(diversity).poolFactor(poolFactor)
        .session(session).entities(entities).queries(queries).nodes(nodes).turns(turns).tokens(tokens)
        .contained(contained).episodeLimiter(episodeLimiter);
  }

  /** False selects the first k by fused score. */
  public boolean enabled() {
    return enabled;
  }

  /** Weight of the fused score. */
  public double relevance() {
    return relevance;
  }

  /** Weight of the similarity to already picked items. */
  public double diversity() {
    return diversity;
  }

  /** The pool holds max(k, min(n, poolFactor·k)) items. */
  public int poolFactor() {
    return poolFactor;
  }

  /** Signature weight of "same session". */
  public double session() {
    return session;
  }

  /** Signature weight of entity Jaccard. */
  public double entities() {
    return entities;
  }

  /** Signature weight of matched-query Jaccard. */
  public double queries() {
    return queries;
  }

  /** Signature weight of evidence-node Jaccard. */
  public double nodes() {
    return nodes;
  }

  /** Signature weight of cited-turn Jaccard. */
  public double turns() {
    return turns;
  }

  /** Signature weight of text-token Jaccard. */
  public double tokens() {
    return tokens;
  }

  /**
   * Weight of the share of an item's cited turns (session-qualified) that an already picked item
   * cites too: an item that shows no new turn adds no new evidence.
   */
  public double contained() {
    return contained;
  }

  /** Whether the episode limiter runs after MMR. */
  public boolean episodeLimiter() {
    return episodeLimiter;
  }

  @Override
  public String toString() {
    return "MmrConfig[enabled=" + enabled + ", relevance=" + relevance + ", diversity=" + diversity
        + ", poolFactor=" + poolFactor + ", session=" + session + ", entities=" + entities + ", queries=" + queries
        + ", nodes=" + nodes + ", turns=" + turns + ", tokens=" + tokens + ", contained=" + contained
        + ", episodeLimiter=" + episodeLimiter + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private boolean enabled = true;
    private double relevance = .75;
    private double diversity = .15;
    private int poolFactor = 4;
    private double session = .15;
    private double entities = .20;
    private double queries = .15;
    private double nodes = .15;
    private double turns = .10;
    private double tokens = .25;
    private double contained = .50;
    private boolean episodeLimiter;

    private Builder() {}

    public Builder enabled(boolean v) {
      enabled = v;
      return this;
    }

    public Builder relevance(double v) {
      relevance = v;
      return this;
    }

    public Builder diversity(double v) {
      diversity = v;
      return this;
    }

    public Builder poolFactor(int v) {
      poolFactor = v;
      return this;
    }

    public Builder session(double v) {
      session = v;
      return this;
    }

    public Builder entities(double v) {
      entities = v;
      return this;
    }

    public Builder queries(double v) {
      queries = v;
      return this;
    }

    public Builder nodes(double v) {
      nodes = v;
      return this;
    }

    public Builder turns(double v) {
      turns = v;
      return this;
    }

    public Builder tokens(double v) {
      tokens = v;
      return this;
    }

    public Builder contained(double v) {
      contained = v;
      return this;
    }

    public Builder episodeLimiter(boolean v) {
      episodeLimiter = v;
      return this;
    }

    public MmrConfig build() {
      return new MmrConfig(this);
    }
  }
}
