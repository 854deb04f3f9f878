package dev.lychee.core.answer;

import static dev.lychee.core.answer.ExtractiveSpansTest.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round fourteen: an everyday clipped word and its full form are one word to the
 * answerer ("bike" and "bicycle", "mum" and "mother", "photo" and "photograph"), so a question in
 * one form finds the sentence that says the other. The exchanges are written for this test.
 */
class ClippedWordsTest {
  @Test
  void aQuestionAboutABicycleFindsTheSentenceAboutTheBike() {
    List<Evidence> ev = turns("2024-11-20", "Ola: I keep my books on a shelf up in the attic.",
        "Ola: I keep my bike in the hallway by the stairs.");
    assertThat(ExtractiveSpansTest.answerWith(new ExtractiveAnswerGenerator(), "Where does Ola keep her bicycle?", ev))
        .containsIgnoringCase("hallway");
  }

  @Test
  void clippedAndFullFormsShareTheirRoot() {
    assertThat(SentenceSupport.roots("my mum and her photos")).containsAll(SentenceSupport.roots("mother photographs"));
    assertThat(SentenceSupport.questionWords("What did Ola's mother give her?"))
        .containsAll(SentenceSupport.roots("mum"));
  }
}
