package dev.lychee.bench.longmemeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.Role;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.systems.Bm25System;
import dev.lychee.bench.systems.EvalSystem;
import java.io.InputStream;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class LongMemEvalHarnessTest {
  private static List<LongMemEvalItem> fixture() throws Exception {
    try (InputStream in = LongMemEvalHarnessTest.class.getResourceAsStream("/longmemeval-tiny.json")) {
      return LongMemEvalLoader.load(in);
    }
  }

  @Test
  void loadsTheOfficialLayout() throws Exception {
    List<LongMemEvalItem> items = fixture();
    assertThat(items).hasSize(3);
    LongMemEvalItem hike = items.get(1);
    assertThat(hike.questionType()).isEqualTo("multi-session");
    assertThat(hike.questionDate()).isEqualTo(LocalDateTime.of(2023, 6, 30, 9, 0));
    assertThat(hike.sessions()).extracting(LmeSession::id).containsExactly("answer_h1", "noise_c", "answer_h2");
    assertThat(hike.sessions().get(0).date()).isEqualTo(LocalDateTime.of(2023, 6, 1, 8, 0));
    assertThat(hike.sessions().get(0).turns().get(0).role()).isEqualTo(Role.ASSISTANT);
    assertThat(hike.sessions().get(0).turns().get(1).hasAnswer()).isTrue();
    assertThat(hike.sessions().get(0).turns().get(0).hasAnswer()).isFalse();
    assertThat(hike.answerSessionIds()).containsExactly("answer_h1", "answer_h2");
    assertThat(items.get(2).isAbstention()).isTrue();
    assertThat(LongMemEvalHarness.goldTurns(hike)).containsExactly("answer_h1#1", "answer_h2#0");
    // The empty assistant turn is left out but the indices of the others stay.
    assertThat(LongMemEvalHarness.sessions(hike).get(1).turns()).hasSize(1);
  }

  @Test
  void bm25OnTheFixtureGivesTheHandComputedScores() throws Exception {
    // Noise turns share no word with the questions, so BM25 returns only answer turns:
    // q-cat: [answer_cat#0]; q-hike: [answer_h1#1 (i, hiking, boots), answer_h2#0 (hiking)].
    try (EvalSystem bm25 = new Bm25System()) {
      LongMemEvalResult r = new LongMemEvalHarness(List.of(1, 5), 10, Progress.silent()).run(fixture(), List.of(bm25));
      assertThat(r.questions()).isEqualTo(2);
      assertThat(r.skippedAbstention()).isEqualTo(1);
      LongMemEvalResult.SystemScores s = r.systems().get(0);
      assertThat(s.turnQuestions()).isEqualTo(2);
      for (var level : List.of(s.session(), s.turn())) {
        assertThat(level.get("recall_any").get(1)).isEqualTo(1.0);
        assertThat(level.get("recall_all").get(1)).isCloseTo(0.5, within(1e-12)); // q-hike needs two
        assertThat(level.get("recall_all").get(5)).isEqualTo(1.0);
        assertThat(level.get("ndcg_any").get(1)).isEqualTo(1.0);
        assertThat(level.get("ndcg_any").get(5)).isEqualTo(1.0);
      }
    }
  }
}
