package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round thirteen: how a phrase answer ends. Words that only date it are cut from its
 * end, a year in brackets included (records write a resolved date after a relative one), and a time
 * word after "every" or "every single" stays, as it tells how often. The sentences are written for
 * this test.
 */
class PhraseTailsTest {

  @Test
  void aResolvedDateInBracketsLeavesTheEndOfAPhrase() {
    assertThat(AnswerSpans.phrase("What is Noor's job title now?",
        "Noor was promoted to shift supervisor last month (October 2024)."))
        .isEqualTo("shift supervisor");
  }

  @Test
  void aTimeWordAfterEverySingleTellsHowOften() {
    assertThat(AnswerSpans.phrase("What is Noor's favourite food in Porto?",
        "In Porto I ate francesinha every single evening."))
        .isEqualTo("francesinha every single evening");
  }
}
