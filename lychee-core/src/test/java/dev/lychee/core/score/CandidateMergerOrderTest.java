package dev.lychee.core.score;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.SourceRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The merger's order: best score, then higher similarity, then id, ties included. */
class CandidateMergerOrderTest {
  /** The order as a chain of comparators says it; the written-out one must agree on every pair. */
  private static final Comparator<Candidate> CHAINED = Comparator.comparingDouble(Candidate::score).reversed()
      .thenComparing(Comparator.comparingDouble(Candidate::similarity).reversed())
      .thenComparing(Candidate::id);

  private static final double[] VALUES = {0, -0.0, 0.25, 0.5, 0.5000000000000001, 1};

  @Test
  void byScoreOrdersAsTheChainedComparator() {
    Random random = new Random(21);
    for (int round = 0; round < 50; round++) {
      List<Candidate> pool = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        pool.add(candidate("c" + random.nextInt(30), VALUES[random.nextInt(VALUES.length)],
            VALUES[random.nextInt(VALUES.length)]));
      }
      for (Candidate a : pool) {
        for (Candidate b : pool) {
          assertThat(Integer.signum(CandidateMerger.BY_SCORE.compare(a, b)))
              .as("%s against %s", a, b).isEqualTo(Integer.signum(CHAINED.compare(a, b)));
        }
      }
    }
  }

  @Test
  void sortedPutsHigherScoreThenHigherSimilarityThenSmallerIdFirst() {
    CandidateMerger m = new CandidateMerger();
    m.add(candidate("b", 0.5, 0.2));
    m.add(candidate("a", 0.5, 0.2));
    m.add(candidate("c", 0.5, 0.9));
    m.add(candidate("d", 0.7, 0.0));
    assertThat(m.sorted()).extracting(Candidate::id).containsExactly("d", "c", "a", "b");
  }

  private static Candidate candidate(String id, double score, double similarity) {
    return new Candidate(id, CandidateKind.RECORD, "ns", "text", "D1", List.of(), null, null, null,
        SourceRole.USER, List.of(), List.of(), score, similarity, Provenance.EMPTY);
  }
}
