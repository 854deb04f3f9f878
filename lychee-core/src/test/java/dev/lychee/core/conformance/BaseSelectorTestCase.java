package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.spi.Selector;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link Selector} contract: at least one and at most k items from a
 * non-empty pool, ranked 1..n, each a distinct candidate of the pool; the strongest candidate of a
 * best-first pool is ranked first; an empty pool selects nothing; the same pool selects the same
 * way.
 */
public abstract class BaseSelectorTestCase {
  /** A fresh selector. */
  protected abstract Selector newSelector();

  protected Selector selector;

  @BeforeEach
  void createSelector() {
    selector = newSelector();
  }

  @Test
  void atMostKDistinctPoolItemsRankedFromOne() {
    List<Candidate> pool = StageInputs.pool();
    for (int k = 1; k <= pool.size() + 2; k++) {
      List<Evidence> out = selector.select(pool, StageInputs.context(k));
      assertThat(out).isNotEmpty().hasSizeLessThanOrEqualTo(Math.min(k, pool.size()));
      assertThat(out).extracting(Evidence::rank)
          .containsExactly(IntStream.rangeClosed(1, out.size()).boxed().toArray(Integer[]::new));
      assertThat(out).extracting(e -> e.candidate().id()).doesNotHaveDuplicates()
          .isSubsetOf(pool.stream().map(Candidate::id).toList());
    }
  }

  @Test
  void theStrongestCandidateComesFirst() {
    List<Candidate> pool = StageInputs.pool();
    assertThat(selector.select(pool, StageInputs.context(3)).get(0).candidate().id()).isEqualTo(pool.get(0).id());
  }

  @Test
  void anEmptyPoolSelectsNothing() {
    assertThat(selector.select(List.of(), StageInputs.context(5))).isEmpty();
  }

  @Test
  void theSamePoolSelectsTheSameWay() {
    List<String> a = selector.select(StageInputs.pool(), StageInputs.context(4)).stream()
        .map(e -> e.candidate().id()).toList();
    List<String> b = newSelector().select(StageInputs.pool(), StageInputs.context(4)).stream()
        .map(e -> e.candidate().id()).toList();
    assertThat(b).isEqualTo(a);
  }
}
