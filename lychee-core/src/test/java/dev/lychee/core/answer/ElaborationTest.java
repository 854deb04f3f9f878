package dev.lychee.core.answer;

import static dev.lychee.core.answer.ExtractiveSpansTest.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import dev.lychee.core.answer.SentenceSupport.Scored;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round thirteen: a "how" question of manner is answered by the sentence after the one
 * that repeats it (the speaker names the topic, then says how it was), and a phrase answer leaves
 * out the adjectives by which the speaker judged the thing. The exchanges are written for this test.
 */
class ElaborationTest {
  private static String ask(String question, List<Evidence> evidence) {
    return ExtractiveSpansTest.answerWith(new ExtractiveAnswerGenerator(), question, evidence);
  }

  @Test
  void aHowQuestionIsAnsweredByTheSentenceAfterItsEcho() {
    List<Evidence> ev = turns("2024-05-02",
        "Ola: My son and the long flight to Lima, wow. He slept the whole way and never cried once.",
        "Ines: That sounds lovely.", "Ola: We took the late train home.");
    String question = "How did Ola's son handle the long flight?";
    assertThat(ask(question, ev)).contains("slept");
    // off: the sentence that names the flight answers, and it says nothing of how it went
    List<Scored> all = SentenceSupport.score(question, EvidenceSentences.of(ev));
    Scored echo = all.get(0);
    assertThat(echo.sentence().text()).contains("flight");
    assertThat(new AnswerSpans().span(AnswerForm.of(question), question, echo.sentence(), all)).doesNotContain("slept");
    assertThat(ExtractiveAnswerGenerator.elaboration(echo, all).sentence().text()).contains("slept");
    // the next sentence must be the same speaker's in the same item; the last sentence keeps itself
    assertThat(ExtractiveAnswerGenerator.elaboration(all.get(1), all)).isSameAs(all.get(1));
    // only "how" of manner: "how many..." asks for a number
    assertThat(AnswerForm.asksHowItWas(question)).isTrue();
    assertThat(AnswerForm.asksHowItWas("How many songs did the choir sing?")).isFalse();
  }

  @Test
  void aPhraseLeavesOutTheAdjectivesThatJudge() {
    String question = "What did Ola make for her neighbour?";
    String body = "I just finished this cute little birdhouse for my neighbour.";
    assertThat(AnswerSpans.phrase(question, body)).isEqualTo("birdhouse");
    assertThat(AnswerSpans.phrase("What hit Ola's street?", "Our street was hit by a nasty flood.")).isEqualTo("flood");
  }
}
