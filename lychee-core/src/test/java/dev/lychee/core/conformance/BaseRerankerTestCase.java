package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.spi.Reranker;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link Reranker} contract: it returns the same candidates (it drops
 * none and adds none) with scores in [0, 1], best first; an empty pool stays empty; the same pool
 * reranks the same way. The pool handed in is sorted by fused score, as a fuser's output may be.
 */
public abstract class BaseRerankerTestCase {
  /** A fresh reranker. */
  protected abstract Reranker newReranker();

  protected Reranker reranker;

  @BeforeEach
  void createReranker() {
    reranker = newReranker();
  }

  @Test
  void keepsEveryCandidate() {
    List<Candidate> pool = StageInputs.pool();
    List<Candidate> out = reranker.rerank(pool, StageInputs.context(5));
    assertThat(out).extracting(Candidate::id).containsExactlyInAnyOrderElementsOf(
        pool.stream().map(Candidate::id).toList());
  }

  @Test
  void scoresLieInTheUnitRangeBestFirst() {
    List<Candidate> out = reranker.rerank(StageInputs.pool(), StageInputs.context(5));
    for (int i = 0; i < out.size(); i++) {
      assertThat(out.get(i).score()).isBetween(0.0, 1.0);
      if (i > 0) {
        assertThat(out.get(i - 1).score()).as("order at %d", i).isGreaterThanOrEqualTo(out.get(i).score());
      }
    }
  }

  @Test
  void anEmptyPoolStaysEmpty() {
    assertThat(reranker.rerank(List.of(), StageInputs.context(5))).isEmpty();
  }

  @Test
  void theSamePoolRerankTheSameWay() {
    List<String> a = reranker.rerank(StageInputs.pool(), StageInputs.context(5)).stream()
        .map(c -> c.id() + "@" + c.score()).toList();
    List<String> b = newReranker().rerank(StageInputs.pool(), StageInputs.context(5)).stream()
        .map(c -> c.id() + "@" + c.score()).toList();
    assertThat(b).isEqualTo(a);
  }
}
