package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.QuestionType;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * MMR under a token budget: a greedy fill on marginal gain (per token when
 * {@link BudgetConfig#costExponent()} is above 0; the measured default 0 is MMR that skips what
 * does not fit). Each step takes, among the candidates that still fit, the one with the highest
 * {@code mmr / tokens^costExponent}, where
 * {@code mmr = relevance·score − diversity·maxSim(candidate, picked)} as in {@link MmrSelector}, so
 * an item that repeats picked evidence is worth little whatever its size. A window that no longer
 * fits is valued as if cut to the room left and cut to the lines that do ({@link WindowShortener})
 * only when it wins, so windows are not cut again at every step. Every pick is checked against the
 * exact token count of the whole serialised list, so the result never exceeds the budget.
 *
 * <p>Nested budgets: the selection for B first fills B/2 (recursively, down to
 * {@link BudgetConfig#nestFloor()}) and then goes on to B, so the evidence for a budget holds the
 * evidence for half of it and doubling a budget never loses a turn. A plain greedy knapsack has no
 * such guarantee: a larger budget lets a big item in early that pushes out two small ones. One
 * instance per selection call.
 *
 * <p>Multi-part plans (aggregate or comparison questions, or several routes) fill the stages above
 * {@link BudgetConfig#multiPartRecordsAbove()} tokens with records only: a list question draws on
 * turns in many sessions, and beyond the first windows a one-line record per turn reaches more of
 * them than further windows of four to seven turns (measured, docs/defaults.md §4.14).
 *
 * <p>Single-fact plans (the single type, one route) hedge once they hold
 * {@link BudgetConfig#hedgeAfter()} items: the rest of their picks are ranked with
 * {@link BudgetConfig#hedgeCostExponent()}, so that a record citing a turn not yet shown can win over
 * a further window of about its value (§4.14, round fourteen).
 */
final class BudgetedMmr {
  private final MmrConfig mmr;
  private final BudgetConfig config;
  private final EvidenceTokens tokens;
  private final WindowShortener shortener;
  /** Tokens an item's estimated size may be short of its share of the whole list's count. */
  private static final int SLACK = 2;

  BudgetedMmr(MmrConfig mmr, BudgetConfig config, EvidenceTokens tokens) {
    this.mmr = mmr;
    this.config = config;
    this.tokens = tokens;
    this.shortener = new WindowShortener(tokens);
  }

  List<Candidate> select(List<Candidate> input, RecallContext context, int budget) {
    State s = new State(input, context);
    boolean multiPart = context.plan().multiPart();
    s.costExponent = multiPart ? config.multiPartCostExponent() : config.costExponent();
    boolean hedged = !multiPart && config.hedgeCostExponent() > 0
        && (config.hedgeEveryType() || context.plan().type() == QuestionType.SINGLE);
    for (int stage : stages(budget)) {
      s.recordsOnly = multiPart && config.multiPartRecordsAbove() > 0 && stage > config.multiPartRecordsAbove();
      s.hedgeHere = hedged && (config.hedgeUpTo() == 0 || stage <= config.hedgeUpTo());
      s.fill(stage);
      s.settle(stage);
    }
    return s.picked;
  }

  /** The stage limits: B, preceded by B/2, B/4... while they stay at or above the nest floor. */
  List<Integer> stages(int budget) {
    List<Integer> out = new ArrayList<>();
    int b = budget;
    out.add(0, b);
    while (config.nestFloor() > 0 && b / 2 >= config.nestFloor()) {
      b /= 2;
      out.add(0, b);
    }
    return out;
  }

  /** The selection in progress. */
  private final class State {
    final List<Candidate> original;
    final List<Candidate> pool;
    final RecallContext context;
    final Signature.Dictionary dict = new Signature.Dictionary();
    final Signature[] sig;
    final int[] cost;
    final double[] maxSim;
    final boolean[] taken;
    final Set<String> terms;
    final int frame;
    final List<Signature> pickedSig = new ArrayList<>();
    final List<Candidate> picked = new ArrayList<>();
    final List<Evidence> serialised = new ArrayList<>();
    /** Picks since {@link #used} was last the exact count of {@link #serialised}. */
    int sinceExact;
    final Set<dev.lychee.api.TurnRef> covered = new java.util.HashSet<>();
    /** Whether the current stage admits records only (a multi-part plan above the threshold). */
    boolean recordsOnly;
    /** The cost exponent of this plan (multi-part plans may have their own). */
    double costExponent;
    /** Whether the current stage hedges a single-fact plan once it holds enough items. */
    boolean hedgeHere;
    int used;

    /** How many of the turns {@code c} cites no picked item cites yet. */
    int newTurns(Candidate c) {
      int n = 0;
      for (dev.lychee.api.TurnRef t : c.turns()) {
        if (!covered.contains(t)) {
          n++;
        }
      }
      return n;
    }

    State(List<Candidate> input, RecallContext context) {
      int n = input.size();
      this.original = List.copyOf(input);
      this.pool = new ArrayList<>(input);
      this.context = context;
      sig = new Signature[n];
      cost = new int[n];
      maxSim = new double[n];
      taken = new boolean[n];
      for (int i = 0; i < n; i++) {
        sig[i] = Signature.of(pool.get(i), dict);
        cost[i] = tokens.item(pool.get(i), 1);
      }
      terms = queryTerms(context);
      frame = tokens.frame();
    }

    /** Goes on picking until nothing more fits in {@code limit} tokens. */
    void fill(int limit) {
      int n = pool.size();
      boolean[] out = taken.clone(); // taken, or too big for this stage
      for (int i = 0; i < n; i++) {
        if (!taken[i] && pool.get(i) != original.get(i)) {
          replace(i, original.get(i)); // a window cut for a smaller stage gets its full length back
        }
      }
      while (picked.size() < context.k()) {
        int rank = picked.size() + 1;
        // the first item also pays for the block headings
        int left = limit - used - (picked.isEmpty() ? frame : 0);
        int bestI = -1;
        double best = Double.NEGATIVE_INFINITY;
        double exponent = hedgeHere && picked.size() >= config.hedgeAfter() ? config.hedgeCostExponent() : costExponent;
        for (int i = 0; i < n; i++) {
          if (out[i] || (recordsOnly && pool.get(i).kind() != CandidateKind.RECORD)) {
            continue; // not marked out: a later stage may admit it again
          }
          boolean tooBig = cost[i] > left;
          if (tooBig && !(config.shortenWindows() && pool.get(i).kind() == CandidateKind.WINDOW)) {
            out[i] = true; // the room left only shrinks within a stage
            continue;
          }
          double gain = mmr.relevance() * pool.get(i).score() - mmr.diversity() * maxSim[i];
          if (config.turnGain() > 0 && gain > 0) {
            gain *= Math.pow(newTurns(pool.get(i)), config.turnGain());
          }
          // a window too big for the room left is valued as if cut to fit, and cut only when it wins
          double size = Math.pow(Math.max(1, tooBig ? left : cost[i]), exponent);
          double v = gain >= 0 ? gain / size : gain * size;
          if (v > best) { // strict: ties keep the earlier (pool-order) item
            best = v;
            bestI = i;
          }
        }
        if (bestI < 0) {
          return;
        }
        if (cost[bestI] > left) {
          if (!shrink(bestI, left, rank)) {
            out[bestI] = true;
          }
          continue; // the cut competes again at its true size
        }
        Candidate c = pool.get(bestI);
        serialised.add(new Evidence(rank, c.score(), c));
        int estimate = used + (picked.isEmpty() ? frame : 0) + tokens.item(c, rank);
        sinceExact++;
        // far from the limit the sum of item sizes is exact enough; near it, count the whole list
        int total = estimate + SLACK * sinceExact <= limit ? estimate : exact();
        if (total > limit) {
          // the estimate was short by a few tokens: try this item once more with the true excess
          serialised.remove(serialised.size() - 1);
          if (!shrink(bestI, cost[bestI] - (total - limit) - 1, rank)) {
            out[bestI] = true;
          }
          continue;
        }
        used = total;
        out[bestI] = true;
        taken[bestI] = true;
        picked.add(c);
        covered.addAll(c.turns());
        pickedSig.add(sig[bestI]);
        context.observer().picked(picked.size(), c, c.score(), maxSim[bestI], best);
        for (int i = 0; i < n; i++) {
          if (!taken[i]) {
            maxSim[i] = Math.max(maxSim[i], sig[i].similarity(sig[bestI], mmr));
          }
        }
      }
    }

    /** The exact size of the serialised list so far. */
    int exact() {
      sinceExact = 0;
      return tokens.count(serialised);
    }

    /** Drops the last picks while the exact size is over {@code limit} (the estimate's safety net). */
    void settle(int limit) {
      used = exact();
      while (used > limit && !picked.isEmpty()) {
        int last = picked.size() - 1;
        serialised.remove(last);
        picked.remove(last);
        pickedSig.remove(last);
        used = exact();
      }
    }

    /** Cuts candidate {@code i}, a window, to {@code allowance} tokens; false when that is impossible. */
    boolean shrink(int i, int allowance, int rank) {
      if (!config.shortenWindows() || allowance <= 0) {
        return false;
      }
      Candidate cut = shortener.shorten(pool.get(i), terms, allowance, rank);
      if (cut == null) {
        return false;
      }
      replace(i, cut);
      cost[i] = tokens.item(cut, rank);
      return cost[i] <= allowance;
    }

    void replace(int i, Candidate c) {
      pool.set(i, c);
      sig[i] = Signature.of(c, dict);
      cost[i] = tokens.item(c, 1);
      maxSim[i] = 0;
      for (Signature p : pickedSig) {
        maxSim[i] = Math.max(maxSim[i], sig[i].similarity(p, mmr));
      }
    }
  }

  private static Set<String> queryTerms(RecallContext context) {
    Set<String> terms = new LinkedHashSet<>(Terms.content(context.question().text()));
    for (RouteQuery q : context.routeQueries()) {
      terms.addAll(q.terms());
    }
    return terms;
  }
}
