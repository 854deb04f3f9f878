package dev.lychee.core.answer;

import static dev.lychee.core.answer.ExtractiveSpansTest.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round thirteen: a question that names a kind of thing ("job title", "favourite food")
 * is answered by a sentence that tells one with the verb dialogue uses for it ("promoted to",
 * "ate"), though the sentence holds none of the question's nouns. The exchanges are written for
 * this test.
 */
class KindsToldByVerbsTest {
  private static String ask(String question, List<Evidence> evidence) {
    return ExtractiveSpansTest.answerWith(new ExtractiveAnswerGenerator(), question, evidence);
  }

  @Test
  void aJobTitleIsToldByAPromotion() {
    List<Evidence> ev = turns("2024-11-20", "Ola: The new flat has a balcony and a view of the river.",
        "Ola: Yes, and I was promoted to shift supervisor last month.", "Ola: My sister visits in May.");
    String answer = ask("What is Ola's job title now?", ev);
    assertThat(answer).containsIgnoringCase("shift supervisor");
    // the sentence holds the question's nouns only through the verb: without it memory holds no answer
    assertThat(SentenceSupport.roots("Yes, and I was promoted to shift supervisor last month."))
        .doesNotContainAnyElementsOf(SentenceSupport.questionWords("What is Ola's job title now?"));
  }

  @Test
  void aFoodIsToldByEating() {
    List<Evidence> ev = turns("2024-11-20", "Ola: Porto was lovely, I ate grilled sardines every evening by the river.",
        "Ola: I'm flying to Porto on August 2nd for a week.", "Ola: The train there was late.");
    String answer = ask("What was Ola's favourite food in Porto?", ev);
    assertThat(answer).containsIgnoringCase("grilled sardines");
    // "ate" is folded to "eat", the verb that tells a food, and the answer is what follows it
    assertThat(SentenceSupport.askedWithVerbs("What was Ola's favourite food in Porto?")).contains("eat");
    assertThat(SentenceSupport.roots("I ate sardines")).contains("eat");
  }
}
