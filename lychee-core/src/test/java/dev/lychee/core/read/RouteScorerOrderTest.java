package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.score.CandidateMerger;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.Cands;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Route scoring sorts once, after the final scores (docs/measurements.md §6, round seventeen): the
 * ranking must still be in {@link CandidateMerger#BY_SCORE} order and must not depend on the order in
 * which the channels returned their hits.
 */
class RouteScorerOrderTest {
  @Test
  void theRankingIsInScoreOrderWhateverOrderTheChannelsReturnedTheirHitsIn() {
    Question question = new Question("ns", "What did Dana paint last spring?", 10, null);
    RecallPlan plan = RecallPlan.singleRoute(question.text());
    RecallContext context = new RecallContext(question, plan, 10, RouteQueries.withoutVectors(question, plan, 8));
    RouteScorer scorer = new RouteScorer(new InMemoryRecordStore(), RetrievalConfig.defaults());
    Random random = new Random(5);
    List<Candidate> hits = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      double score = Math.round(random.nextDouble() * 10) / 10.0; // scores in tenths: many ties
      hits.add(i % 3 == 0 ? Cands.record("rec-" + i, "text " + i, score, "r1")
          : Cands.turn("s" + i % 4, i, "turn " + i, score));
    }
    List<Candidate> first = null;
    for (int round = 0; round < 20; round++) {
      List<Candidate> shuffled = new ArrayList<>(hits);
      Collections.shuffle(shuffled, random);
      int cut = random.nextInt(shuffled.size());
      List<Candidate> ranked = scorer.rank(plan.routes().get(0),
          List.of(shuffled.subList(0, cut), shuffled.subList(cut, shuffled.size())), context).candidates();
      assertThat(ranked).hasSize(hits.size()).isSortedAccordingTo(CandidateMerger.BY_SCORE);
      if (first == null) {
        first = ranked;
      } else {
        assertThat(ranked).containsExactlyElementsOf(first);
      }
    }
  }
}
