package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round fifteen: "what did X do Y for?" asks for a purpose, told after "to" when no
 * "for ..." says it, and "what is one of X's favourite films?" asks for one title. The exchanges are
 * written for this test.
 */
class PurposesAndTitlesTest {
  private final ExtractiveAnswerGenerator answerer = new ExtractiveAnswerGenerator();

  @Test
  void aQuestionEndingOnForIsAnsweredByThePurpose() {
    List<Evidence> ev = AnswerSpanRulesTest.items(
        "Ines: Ola drove up to the lake cabin on Friday to finish her thesis in peace.");
    assertThat(ExtractiveSpansTest.answerWith(answerer, "What did Ola drive up to the lake cabin for?", ev))
        .isEqualTo("to finish her thesis in peace");
    // "for ..." in the sentence still answers first
    assertThat(AnswerSpans.phrase("What did Ola save money for?", "Ola saved money for a new bike to ride to work."))
        .startsWith("new bike");
  }

  @Test
  void oneOfSeveralWorksAsksForATitle() {
    assertThat(AnswerForm.asksForATitle("What is one of Ola's favourite films?")).isTrue();
    assertThat(AnswerForm.asksForATitle("What is one of Ola's hobbies?")).isFalse();
    List<Evidence> ev = AnswerSpanRulesTest.items(
        "Ines: Any film tips? / Ola: \"Paper Lanterns\" is one of my favourite films, I have seen it five times.");
    assertThat(ExtractiveSpansTest.answerWith(answerer, "What is one of Ola's favourite films?", ev))
        .isEqualTo("Paper Lanterns");
  }
}
