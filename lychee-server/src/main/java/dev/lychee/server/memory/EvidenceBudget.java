package dev.lychee.server.memory;

import dev.lychee.api.Evidence;
import dev.lychee.api.spi.TokenCounter;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts ranked evidence to a token budget: items are kept in rank order while their texts fit;
 * the first item that does not fit ends the list, so what is returned is always a prefix of the
 * ranking (callers reason about "the top items", not a knapsack).
 */
final class EvidenceBudget {
  private final TokenCounter counter;

  EvidenceBudget(TokenCounter counter) {
    this.counter = counter;
  }

  /** Token counts of each item's text, in order. */
  int[] counts(List<Evidence> evidence) {
    int[] out = new int[evidence.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = counter.count(evidence.get(i).text());
    }
    return out;
  }

  /** The longest prefix of {@code evidence} whose texts fit in {@code budget} tokens. */
  List<Evidence> fit(List<Evidence> evidence, int[] counts, int budget) {
    List<Evidence> kept = new ArrayList<>();
    long used = 0;
    for (int i = 0; i < evidence.size(); i++) {
      if (used + counts[i] > budget) {
        break;
      }
      used += counts[i];
      kept.add(evidence.get(i));
    }
    return kept;
  }
}
