package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Answer;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.core.answer.LlmAnswerGenerator;
import dev.lychee.core.testing.Cands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link AnswerGenerator} contract: without evidence it says the
 * information is not available instead of inventing an answer; with evidence it writes a non-blank
 * answer that carries exactly the evidence it was given; it reports token usage; it is
 * thread-safe.
 */
public abstract class BaseAnswerGeneratorTestCase {
  protected static final Question QUESTION = Question.of("ns", "What instrument does Dana play?");
  protected static final RecallPlan PLAN = RecallPlan.singleRoute(QUESTION.text());

  /** A fresh answer generator (LLM-backed ones get a chat model that answers every request). */
  protected abstract AnswerGenerator newAnswerGenerator();

  /** What this generator says when it has no evidence. */
  protected String notAvailable() {
    return LlmAnswerGenerator.NOT_AVAILABLE;
  }

  protected AnswerGenerator answerer;
  private ExecutorService pool;

  @BeforeEach
  void createAnswerer() {
    answerer = newAnswerGenerator();
  }

  @AfterEach
  void stopPool() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  protected static List<Evidence> evidence() {
    return List.of(
        new Evidence(1, .9, Cands.turn("s1", 1, "Omar: I went fishing on Sunday. The lake was calm.", .9)),
        new Evidence(2, .8, Cands.turn("s1", 2, "Dana: I finally bought a cello. I play it every evening.", .8)),
        new Evidence(3, .6, Cands.record("rec-cello", "Dana plays the cello.", .6, "r1")));
  }

  @Test
  void withoutEvidenceItSaysNotAvailable() {
    Answer a = answerer.answer(QUESTION, PLAN, List.of());
    assertThat(a.text()).isEqualTo(notAvailable());
    assertThat(a.evidence()).isEmpty();
  }

  @Test
  void withEvidenceItAnswersAndCarriesThatEvidence() {
    List<Evidence> given = evidence();
    Answer a = answerer.answer(QUESTION, PLAN, given);
    assertThat(a.text()).isNotBlank();
    assertThat(a.evidence()).extracting(e -> e.candidate().id())
        .containsExactlyInAnyOrderElementsOf(given.stream().map(e -> e.candidate().id()).toList());
    assertThat(a.usage()).isNotNull();
  }

  @Test
  void isThreadSafe() throws Exception {
    String expected = answerer.answer(QUESTION, PLAN, evidence()).text();
    pool = Executors.newFixedThreadPool(4);
    List<Future<String>> futures = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      futures.add(pool.submit(() -> answerer.answer(QUESTION, PLAN, evidence()).text()));
    }
    for (Future<String> f : futures) {
      assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(expected);
    }
  }
}
