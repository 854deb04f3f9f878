package dev.lychee.bench.metrics;

import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.bench.systems.BudgetedRecall;
import dev.lychee.bench.systems.EvidenceItem;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Scores one recalled evidence list against gold turns, per evaluation.md §2: recall@k and hit@k
 * over the turns the first k items cite, the tokens of those items, and recall@B over the longest
 * prefix of the list whose serialised items fit in B tokens. With a gold answer it also scores
 * answer containment of that prefix, and with evidence selected for each budget (§6, budget mode)
 * the recall, containment and size of exactly that evidence.
 */
public final class EvidenceScorer {
  private final List<Integer> ks;
  private final List<Integer> budgets;
  private final TokenCounter counter;

  public EvidenceScorer(List<Integer> ks, List<Integer> budgets, TokenCounter counter) {
    this.ks = List.copyOf(ks);
    this.budgets = List.copyOf(budgets);
    this.counter = Objects.requireNonNull(counter, "counter");
    if (this.ks.isEmpty() || this.ks.stream().anyMatch(k -> k < 1)) {
      throw new IllegalArgumentException("ks must be >= 1: " + ks);
    }
    if (this.budgets.stream().anyMatch(b -> b < 1)) {
      throw new IllegalArgumentException("token budgets must be >= 1: " + budgets);
    }
  }

  public List<Integer> ks() {
    return ks;
  }

  public List<Integer> budgets() {
    return budgets;
  }

  /** The depth a system must return so that every k and (usually) every budget can be filled. */
  public int maxK() {
    return ks.stream().mapToInt(Integer::intValue).max().orElseThrow();
  }

  public QuestionScore score(int category, Collection<TurnRef> gold, List<EvidenceItem> items) {
    return score(category, gold, items, null, Map.of());
  }

  /**
   * @param goldAnswer the reference answer, or null to skip containment
   * @param budgeted evidence the system selected for each budget (empty: prefix mode only)
   */
  public QuestionScore score(int category, Collection<TurnRef> gold, List<EvidenceItem> items, String goldAnswer,
      Map<Integer, BudgetedRecall> budgeted) {
    Set<TurnRef> goldSet = Set.copyOf(gold);
    if (goldSet.isEmpty()) {
      throw new IllegalArgumentException("no gold turns");
    }
    int[] itemTokens = items.stream().mapToInt(this::tokens).toArray();
    Map<Integer, Double> recall = new HashMap<>();
    Map<Integer, Double> hit = new HashMap<>();
    Map<Integer, Double> tokens = new HashMap<>();
    for (int k : ks) {
      int n = Math.min(k, items.size());
      double r = recall(goldSet, covered(items, n));
      recall.put(k, r);
      hit.put(k, r > 0 ? 1.0 : 0.0);
      long sum = 0;
      for (int i = 0; i < n; i++) {
        sum += itemTokens[i];
      }
      tokens.put(k, (double) sum);
    }
    Map<Integer, Double> recallTokens = new HashMap<>();
    Map<Integer, Double> contained = new HashMap<>();
    for (int b : budgets) {
      int n = prefixWithin(itemTokens, b);
      recallTokens.put(b, recall(goldSet, covered(items, n)));
      if (goldAnswer != null) {
        contained.put(b, AnswerContainment.contained(goldAnswer, shown(items, n)));
      }
    }
    Map<Integer, Double> budgetRecall = new HashMap<>();
    Map<Integer, Double> budgetContained = new HashMap<>();
    Map<Integer, Double> budgetTokens = new HashMap<>();
    int over = 0;
    for (Map.Entry<Integer, BudgetedRecall> e : budgeted.entrySet()) {
      List<EvidenceItem> chosen = e.getValue().items();
      budgetRecall.put(e.getKey(), recall(goldSet, covered(chosen, chosen.size())));
      budgetTokens.put(e.getKey(), (double) e.getValue().serialisedTokens());
      if (goldAnswer != null) {
        budgetContained.put(e.getKey(), AnswerContainment.contained(goldAnswer, shown(chosen, chosen.size())));
      }
      if (e.getValue().serialisedTokens() > e.getKey()) {
        over++;
      }
    }
    return new QuestionScore(category, recall, hit, tokens, recallTokens, contained, budgetRecall, budgetContained,
        budgetTokens, over);
  }

  /** What a reader sees of the first {@code n} items, one after the other. */
  static String shown(List<EvidenceItem> items, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(n, items.size()); i++) {
      sb.append(items.get(i).shown()).append("\n\n");
    }
    return sb.toString();
  }

  /** Tokens of one item: its serialised text counted with the tokenizer, plus its overhead. */
  public int tokens(EvidenceItem item) {
    return counter.count(item.text()) + item.overheadTokens();
  }

  /** The union of the turns the first {@code n} items cite. */
  public static Set<TurnRef> covered(List<EvidenceItem> items, int n) {
    Set<TurnRef> out = new LinkedHashSet<>();
    for (int i = 0; i < Math.min(n, items.size()); i++) {
      out.addAll(items.get(i).turns());
    }
    return out;
  }

  /** {@code |gold ∩ covered| / |gold|}. */
  public static double recall(Set<TurnRef> gold, Set<TurnRef> covered) {
    if (gold.isEmpty()) {
      throw new IllegalArgumentException("no gold turns");
    }
    long found = gold.stream().filter(covered::contains).count();
    return (double) found / gold.size();
  }

  /**
   * How many leading items fit in {@code budget} tokens: the walk stops at the first item that
   * would take the running total over the budget.
   */
  public static int prefixWithin(int[] itemTokens, int budget) {
    long total = 0;
    int n = 0;
    for (int t : itemTokens) {
      if (total + t > budget) {
        break;
      }
      total += t;
      n++;
    }
    return n;
  }
}
