package dev.lychee.bench.systems;

import java.util.List;

/**
 * Evidence a system selected for a token budget (not a prefix of a longer list).
 *
 * @param items the selected items, in final order
 * @param serialisedTokens the tokens of the whole serialised evidence as the answer prompt shows
 *     it, by the system's own count (the harness checks it against the budget)
 */
public record BudgetedRecall(List<EvidenceItem> items, int serialisedTokens) {
  public BudgetedRecall {
    items = List.copyOf(items);
    if (serialisedTokens < 0) {
      throw new IllegalArgumentException("serialisedTokens must be >= 0");
    }
  }
}
