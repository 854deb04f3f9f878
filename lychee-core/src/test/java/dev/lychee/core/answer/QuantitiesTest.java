package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round fourteen: quantities. A range of numbers and a hyphened number word are one
 * quantity, a participle after what is counted is no part of it, and a number told right after a
 * reply that only confirms answers the question that reply answers. The exchanges are written for
 * this test. Round fifteen: "what was the number of X?" asks for a count.
 */
class QuantitiesTest {

  @Test
  void aRangeOfNumbersIsOneQuantity() {
    assertThat(AnswerSpans.quantity("How long does Ola hold the plank?", "I usually hold it for 45-90 seconds."))
        .isEqualTo("45-90 seconds");
  }

  @Test
  void aHyphenedNumberWordIsOneWordOfWhatIsCounted() {
    assertThat(AnswerSpans.quantity("How long did the ferry take?", "Three hours forty-five minutes, door to door."))
        .isEqualTo("Three hours forty-five");
  }

  @Test
  void aParticipleAfterWhatIsCountedIsNoPartOfIt() {
    assertThat(AnswerSpans.quantity("How many herons did Ola see?", "Ola saw two herons fishing in the reeds."))
        .isEqualTo("two herons");
    // a time word in -ing right after the number is what is counted
    assertThat(AnswerSpans.quantity("How often does Ola swim?", "Ola swims three mornings a week."))
        .isEqualTo("three mornings a week");
  }

  @Test
  void aNumberAfterAConfirmingReplyAnswersTheQuestionThatReplyAnswers() {
    // two exchanges: a "how long" reply about a drive that shares the question's rarer words
    // ("long", "take"), and the race the question is about, whose time is told after "I finished it!"
    List<Evidence> ev = AnswerSpanRulesTest.items(
        "Ines: And the drive to Porto, how long will it take? / Ola: About four days, with stops in every town.",
        "Ines: So, how did the canal relay go? / Ola: I finished it! / Ola: Two hours ten. / Ines: Well done!");
    String question = "How long did Ola take to finish the canal relay?";
    assertThat(ExtractiveSpansTest.answerWith(new ExtractiveAnswerGenerator(), question, ev)).isEqualTo("Two hours ten");
  }

  @Test
  void theNumberOfSomethingAsksForACount() {
    // round fifteen: "what was the highest number of X" asks "how many" in other words
    assertThat(AnswerForm.of("What was the highest number of laps Ola swam in one go?")).isEqualTo(AnswerForm.QUANTITY);
    assertThat(AnswerForm.of("What is the total amount of flour in the recipe?")).isEqualTo(AnswerForm.QUANTITY);
    List<Evidence> ev = AnswerSpanRulesTest.items(
        "Ines: How was the pool today? / Ola: Last week I swam 60 laps in one go, my best ever, and it felt great.");
    assertThat(ExtractiveSpansTest.answerWith(new ExtractiveAnswerGenerator(),
        "What was the highest number of laps Ola swam in one go?", ev)).isEqualTo("60 laps");
  }
}
