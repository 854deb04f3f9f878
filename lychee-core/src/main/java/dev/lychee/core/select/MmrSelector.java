package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.Selector;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.strategy.Strategies;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * Diversity-aware selection (§4.11): greedy MMR, each step picking the candidate with the highest
 * {@code relevance·score − diversity·maxSim(candidate, picked)}, over a pool of the first
 * {@code max(k, min(n, 4k))} candidates. Because the pool is larger than k, diversity changes which
 * items are selected, not only their order (the reference code only reorders). With MMR disabled
 * it takes the first k in the given order. The episode limiter (§4.12) runs afterwards when
 * configured.
 *
 * <p>A question with a token budget is selected by {@link BudgetedMmr} instead (gain per token,
 * windows cut to fit, never over the budget as {@link EvidenceTokens} counts it); with MMR
 * disabled it takes candidates in the given order, skipping those that no longer fit.
 */
public final class MmrSelector implements Selector {
  private final MmrConfig config;
  private final BudgetConfig budgetConfig;
  private final EvidenceTokens tokens;
  private final EpisodeLimiter limiter;

  /** A selector with the default budget settings, counting tokens with o200k. */
  public MmrSelector(MmrConfig config, Strategies strategies) {
    this(config, BudgetConfig.defaults(), strategies, new EvidenceTokens(new O200kTokenCounter()));
  }

  @Inject
  public MmrSelector(MmrConfig config, BudgetConfig budgetConfig, Strategies strategies, EvidenceTokens tokens) {
    this.config = config;
    this.budgetConfig = budgetConfig;
    this.tokens = tokens;
    this.limiter = new EpisodeLimiter(strategies);
  }

  @Override
  public List<Evidence> select(List<Candidate> pool, RecallContext context) {
    int k = context.k();
    MmrConfig m = config;
    List<Candidate> picked;
    int budget = context.question().tokenBudget();
    if (context.question().hasTokenBudget()) {
      List<Candidate> head = pool.subList(0, Math.max(Math.min(k, pool.size()), Math.min(pool.size(), m.poolFactor() * k)));
      picked = m.enabled() ? new BudgetedMmr(m, budgetConfig, tokens).select(head, context, budget)
          : inOrderWithin(head, k, budget);
    } else if (!m.enabled()) {
      picked = new ArrayList<>(pool.subList(0, Math.min(k, pool.size())));
    } else {
      picked = mmr(pool.subList(0, Math.max(Math.min(k, pool.size()), Math.min(pool.size(), m.poolFactor() * k))), k, m,
          context.observer());
    }
    if (m.episodeLimiter() && !context.question().hasTokenBudget()) { // under a budget, the budget is the limit
      picked = limiter.limit(picked, pool, context);
    }
    List<Evidence> out = new ArrayList<>(picked.size());
    for (int i = 0; i < picked.size(); i++) {
      out.add(new Evidence(i + 1, picked.get(i).score(), picked.get(i)));
    }
    return out;
  }

  private List<Candidate> inOrderWithin(List<Candidate> pool, int k, int budget) {
    List<Candidate> picked = new ArrayList<>();
    List<Evidence> trial = new ArrayList<>();
    for (Candidate c : pool) {
      if (picked.size() >= k) {
        break;
      }
      trial.add(new Evidence(trial.size() + 1, c.score(), c));
      if (tokens.count(trial) <= budget) {
        picked.add(c);
      } else {
        trial.remove(trial.size() - 1);
      }
    }
    return picked;
  }

  private static List<Candidate> mmr(List<Candidate> pool, int k, MmrConfig m, RecallObserver observer) {
    int n = pool.size();
    Signature[] sig = new Signature[n];
    Signature.Dictionary dict = new Signature.Dictionary();
    for (int i = 0; i < n; i++) {
      sig[i] = Signature.of(pool.get(i), dict);
    }
    double[] maxSim = new double[n];
    boolean[] used = new boolean[n];
    List<Candidate> out = new ArrayList<>(Math.min(k, n));
    while (out.size() < Math.min(k, n)) {
      int bestI = -1;
      double best = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        if (used[i]) {
          continue;
        }
        double v = m.relevance() * pool.get(i).score() - m.diversity() * maxSim[i];
        if (v > best) { // strict: ties keep the earlier (pool-order) item
          best = v;
          bestI = i;
        }
      }
      used[bestI] = true;
      out.add(pool.get(bestI));
      observer.picked(out.size(), pool.get(bestI), pool.get(bestI).score(), maxSim[bestI], best);
      for (int i = 0; i < n; i++) {
        if (!used[i]) {
          maxSim[i] = Math.max(maxSim[i], sig[i].similarity(sig[bestI], m));
        }
      }
    }
    return out;
  }
}
