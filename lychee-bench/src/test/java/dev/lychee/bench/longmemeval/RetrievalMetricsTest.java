package dev.lychee.bench.longmemeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RetrievalMetricsTest {
  @Test
  void recallAnyAndAllLookAtTheTopK() {
    List<String> ranking = List.of("x", "g1", "y", "g2");
    List<String> gold = List.of("g1", "g2");
    assertThat(RetrievalMetrics.recallAny(ranking, gold, 1)).isZero();
    assertThat(RetrievalMetrics.recallAny(ranking, gold, 2)).isEqualTo(1.0);
    assertThat(RetrievalMetrics.recallAll(ranking, gold, 3)).isZero();
    assertThat(RetrievalMetrics.recallAll(ranking, gold, 4)).isEqualTo(1.0);
    assertThat(RetrievalMetrics.recallAll(ranking, gold, 50)).isEqualTo(1.0);
    assertThat(RetrievalMetrics.recallAny(List.of(), gold, 5)).isZero();
  }

  @Test
  void ndcgFollowsTheOfficialDiscounts() {
    List<String> ranking = List.of("x", "g1", "y", "g2");
    List<String> gold = List.of("g1", "g2");
    // k=3: DCG = 0 + 1/log2(2) + 0 = 1; ideal [1,1] = 1 + 1/log2(2) = 2.
    assertThat(RetrievalMetrics.ndcgAny(ranking, gold, 3)).isCloseTo(0.5, within(1e-12));
    // k=4: DCG = 1 + 1/log2(4) = 1.5; ideal still 2.
    assertThat(RetrievalMetrics.ndcgAny(ranking, gold, 4)).isCloseTo(0.75, within(1e-12));
    // One gold at position 3: 1/log2(3) = 0.63093; ideal 1.
    assertThat(RetrievalMetrics.ndcgAny(List.of("a", "b", "g"), List.of("g"), 3)).isCloseTo(0.6309298, within(1e-6));
    // Positions 1 and 2 are both undiscounted in the official code.
    assertThat(RetrievalMetrics.ndcgAny(List.of("a", "g"), List.of("g"), 2)).isEqualTo(1.0);
    assertThat(RetrievalMetrics.ndcgAny(List.of("g"), List.of("g"), 1)).isEqualTo(1.0);
    assertThat(RetrievalMetrics.ndcgAny(List.of("a"), List.of("g"), 1)).isZero();
    assertThat(RetrievalMetrics.ndcgAny(List.of("a"), List.of(), 1)).isZero();
  }
}
