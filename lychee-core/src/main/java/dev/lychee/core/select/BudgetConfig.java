package dev.lychee.core.select;

import static dev.lychee.core.config.ConfigChecks.atLeast;
import static dev.lychee.core.config.ConfigChecks.nonNegative;

import dev.lychee.api.Question;

/**
 * How a question with a token budget is recalled and selected ({@link BudgetedMmr}). Immutable.
 *
 * <p>The search depth grows with the budget: a budget of B tokens searches
 * {@code clamp(ceil(B / tokensPerItem), k, maxDepth)} items deep, so a large budget has enough
 * candidates to fill and a small one is not searched deeper than the question's k. Selection ranks
 * candidates by {@code mmr / tokens^costExponent}: 0 ignores size (MMR that skips what does not fit
 * and cuts windows to fit), 1 is pure gain per token.
 *
 * <p>Defaults measured on the LoCoMo dev half (offline; docs/defaults.md §4.14): costExponent 0.5
 * favoured one-turn records over windows that show several turns and lost about .14 recall at 500
 * and 1,000 tokens against costExponent 0; weighting new turns (turnGain 0.5) did not make up for it.
 * The nested stages (nestFloor 250) cost nothing measurable and keep doubling budgets monotone.
 *
 * <p>Multi-part questions (an aggregate or comparison plan, or a plan of several routes) fill the
 * stages above {@link #multiPartRecordsAbove()} tokens with records only (§4.14, issue 20 round nine):
 * the first stages keep the windows that show the reply after a hit, and the rest of the budget
 * goes to one-line records, each citing another turn, which reach more of the sessions a list
 * question draws on. Their selection also has its own, slight cost exponent
 * ({@link #multiPartCostExponent()}, 0.05 against 0 for other plans; §4.14, round thirteen).
 * A single-fact plan hedges after its first pick ({@link #hedgeCostExponent()}, 0.03; §4.14, round
 * fourteen): a question planned as one fact may still be a list.
 */
public final class BudgetConfig {
  private static final String OWNER = "BudgetConfig";

  private final int tokensPerItem;
  private final int maxDepth;
  private final double costExponent;
  private final boolean shortenWindows;
  private final int nestFloor;
  private final double turnGain;
  private final int multiPartRecordsAbove;
  private final double multiPartCostExponent;
  private final double hedgeCostExponent;
  private final int hedgeAfter;
  private final int hedgeUpTo;
  private final boolean hedgeEveryType;

  private BudgetConfig(Builder b) {
    tokensPerItem = atLeast(OWNER, "tokensPerItem", b.tokensPerItem, 1);
    maxDepth = atLeast(OWNER, "maxDepth", b.maxDepth, 1);
    costExponent = upToTwo("costExponent", b.costExponent);
    shortenWindows = b.shortenWindows;
    nestFloor = atLeast(OWNER, "nestFloor", b.nestFloor, 0);
    turnGain = upToTwo("turnGain", b.turnGain);
    multiPartRecordsAbove = atLeast(OWNER, "multiPartRecordsAbove", b.multiPartRecordsAbove, 0);
    multiPartCostExponent = upToTwo("multiPartCostExponent", b.multiPartCostExponent);
    hedgeCostExponent = upToTwo("hedgeCostExponent", b.hedgeCostExponent);
    hedgeAfter = atLeast(OWNER, "hedgeAfter", b.hedgeAfter, 0);
    hedgeUpTo = atLeast(OWNER, "hedgeUpTo", b.hedgeUpTo, 0);
    hedgeEveryType = b.hedgeEveryType;
  }

  /** An exponent of token cost or turn gain: 0 to 2, with the messages of the other checks. */
  private static double upToTwo(String name, double value) {
    nonNegative(OWNER, name, value);
    if (value > 2) {
      throw new IllegalArgumentException(OWNER + "." + name + " must be <= 2: " + value);
    }
    return value;
  }

  public static BudgetConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder().tokensPerItem(tokensPerItem).maxDepth(maxDepth).costExponent(costExponent)
        .shortenWindows(shortenWindows).nestFloor(nestFloor).turnGain(turnGain)
        .multiPartRecordsAbove(multiPartRecordsAbove).multiPartCostExponent(multiPartCostExponent)
        .hedgeCostExponent(hedgeCostExponent).hedgeAfter(hedgeAfter).hedgeUpTo(hedgeUpTo).hedgeEveryType(hedgeEveryType);
  }

  /** The expected tokens of one evidence item, which sets the search depth of a budget. */
  public int tokensPerItem() {
    return tokensPerItem;
  }

  /** The deepest a budgeted question is searched (the question's own k, if larger, wins). */
  public int maxDepth() {
    return maxDepth;
  }

  /** How strongly an item's size lowers its selection value (0 to 2). */
  public double costExponent() {
    return costExponent;
  }

  /** Whether a window that does not fit the budget left is cut to its best lines that do. */
  public boolean shortenWindows() {
    return shortenWindows;
  }

  /**
   * Selection for a budget B first selects for B/2 when B/2 is at least this (recursively), so
   * that doubling a budget never loses evidence; 0 selects for B in one pass. Below the floor a
   * budget is filled in one pass, because a tiny first stage would lock in cut windows.
   */
  public int nestFloor() {
    return nestFloor;
  }

  /**
   * How strongly the number of new turns an item cites raises its value ({@code newTurns^turnGain}):
   * a window showing five unseen turns is more new evidence than a record restating one. 0 ignores it.
   */
  public double turnGain() {
    return turnGain;
  }

  /**
   * For a multi-part plan (aggregate or comparison type, or more than one route), the nested
   * selection stages whose limit lies above this many tokens admit records only; the stages up to
   * it take every kind. 0 switches the rule off. With the default 500, a budget of 1,000 tokens
   * fills its first 500 as before and the rest with records, and a budget of 500 is unchanged.
   */
  public int multiPartRecordsAbove() {
    return multiPartRecordsAbove;
  }

  /**
   * The cost exponent of a multi-part plan's selection (0 to 2; default 0.05, docs/defaults.md
   * §4.14, issue 20 round thirteen). A list question draws on turns in many sessions, so a slight
   * preference for small items (a one-line record citing one of them) pays for it, where the same
   * preference for every plan costs single-fact questions the window after their hit.
   */
  public double multiPartCostExponent() {
    return multiPartCostExponent;
  }

  /**
   * The cost exponent a single-fact plan's selection switches to once it holds {@link #hedgeAfter()}
   * items, in the stages up to {@link #hedgeUpTo()} tokens (0 to 2; default 0.03, docs/defaults.md
   * §4.14, issue 20 round fourteen; 0 switches the hedge off). A question planned as one fact may
   * still draw on several turns (about a third of the dev half's multi-hop questions are planned so);
   * once the window after its best hit is in, a one-line record citing a turn not yet shown competes
   * with further windows on value per token. The first pick stays unpriced, since a single fact needs
   * the window after its hit.
   */
  public double hedgeCostExponent() {
    return hedgeCostExponent;
  }

  /** How many items a single-fact plan's selection holds before {@link #hedgeCostExponent()} applies. */
  public int hedgeAfter() {
    return hedgeAfter;
  }

  /** The largest stage limit the hedge applies in; 0 applies it in every stage. */
  public int hedgeUpTo() {
    return hedgeUpTo;
  }

  /**
   * Whether the hedge applies to every plan that is not multi-part; false applies it to plans of
   * the single type only (temporal, advice and assistant questions keep their selection).
   */
  public boolean hedgeEveryType() {
    return hedgeEveryType;
  }

  /** The search depth of a question: its k without a budget, else the budget's depth. */
  public int depth(Question q) {
    if (!q.hasTokenBudget()) {
      return q.k();
    }
    int byBudget = (q.tokenBudget() + tokensPerItem - 1) / tokensPerItem;
    return Math.max(q.k(), Math.min(maxDepth, byBudget));
  }

  @Override
  public String toString() {
    return "BudgetConfig[tokensPerItem=" + tokensPerItem + ", maxDepth=" + maxDepth + ", costExponent="
        + costExponent + ", shortenWindows=" + shortenWindows + ", nestFloor=" + nestFloor + ", turnGain=" + turnGain
        + ", multiPartRecordsAbove=" + multiPartRecordsAbove + ", multiPartCostExponent=" + multiPartCostExponent
        + ", hedgeCostExponent=" + hedgeCostExponent + ", hedgeAfter=" + hedgeAfter + ", hedgeUpTo=" + hedgeUpTo
        + ", hedgeEveryType=" + hedgeEveryType + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private int tokensPerItem = 40;
    private int maxDepth = 60;
    private double costExponent = 0;
    private boolean shortenWindows = true;
    private int nestFloor = 250;
    private double turnGain;
    private int multiPartRecordsAbove = 500;
    private double multiPartCostExponent = 0.05;
    private double hedgeCostExponent = 0.03;
    private int hedgeAfter = 1;
    private int hedgeUpTo;
    private boolean hedgeEveryType;

    private Builder() {}

    /** The single-fact plans' cost exponent once the hedge applies; 0 switches it off. */
    public Builder hedgeCostExponent(double v) {
      hedgeCostExponent = v;
      return this;
    }

    /** How many items a single-fact plan holds before the hedge applies; at least 0 (default 1). */
    public Builder hedgeAfter(int v) {
      hedgeAfter = v;
      return this;
    }

    /** The largest stage limit, in tokens, the hedge applies in; 0 (the default) means every stage. */
    public Builder hedgeUpTo(int v) {
      hedgeUpTo = v;
      return this;
    }

    /** Whether every plan that is not multi-part hedges, not only single-type plans (default false). */
    public Builder hedgeEveryType(boolean v) {
      hedgeEveryType = v;
      return this;
    }

    /** The cost exponent of multi-part plans; 0 selects them as single-part plans are selected. */
    public Builder multiPartCostExponent(double v) {
      multiPartCostExponent = v;
      return this;
    }

    /** 0 switches the records-only stages of multi-part plans off. */
    public Builder multiPartRecordsAbove(int v) {
      multiPartRecordsAbove = v;
      return this;
    }

    public Builder turnGain(double v) {
      turnGain = v;
      return this;
    }

    public Builder nestFloor(int v) {
      nestFloor = v;
      return this;
    }

    public Builder tokensPerItem(int v) {
      tokensPerItem = v;
      return this;
    }

    public Builder maxDepth(int v) {
      maxDepth = v;
      return this;
    }

    public Builder costExponent(double v) {
      costExponent = v;
      return this;
    }

    public Builder shortenWindows(boolean v) {
      shortenWindows = v;
      return this;
    }

    public BudgetConfig build() {
      return new BudgetConfig(this);
    }
  }
}
