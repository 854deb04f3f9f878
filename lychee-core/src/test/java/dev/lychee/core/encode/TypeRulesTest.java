package dev.lychee.core.encode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryType;
import dev.lychee.core.time.Tense;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TypeRulesTest {

  @ParameterizedTest(name = "[{index}] {0} -> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      I love hiking in the mountains.                  | false | PREFERENCE | false
      I really like jazz.                              | false | PREFERENCE | false
      It looks like a great place to relax.            | false | FACT       | false
      It had things like salads and desserts.          | false | FACT       | false
      I'm allergic to peanuts.                         | false | CONSTRAINT | false
      I can't eat gluten.                              | false | CONSTRAINT | false
      That must feel incredible.                       | false | FACT       | false
      I can't wait to see the show.                    | false | FACT       | true
      I'm going to Rome next month.                    | true  | EVENT      | true
      I will learn to paint.                           | false | FACT       | true
      I'm going to open a bakery next month.           | true  | EVENT      | true
      I'll always love the ocean.                      | false | PREFERENCE | true
      I will never be able to eat gluten, I cannot.    | false | CONSTRAINT | true
      I got a puppy!                                   | false | EVENT      | false
      My son got a puppy for his birthday.             | false | EVENT      | false
      I felt inspired after the talk.                  | false | FACT       | false
      I finally finished the first draft.              | false | EVENT      | false
      We were so excited about it.                     | false | FACT       | false
      I'm really into pottery these days.              | false | PREFERENCE | false
      I usually run in the mornings.                   | false | PREFERENCE | false
      My fave food is sushi.                           | false | PREFERENCE | false
      I messed up the order at work.                   | false | FAILURE_PATTERN | false
      She is a nurse.                                  | false | FACT       | false
      I went to the museum.                            | false | EVENT      | false
      We had a picnic on Sunday.                       | true  | EVENT      | false
      I made a big mistake with the budget.            | false | FAILURE_PATTERN | false
      The trick is to soak the beans overnight.        | false | PROCEDURE  | false
      My sister lives in Denver.                       | false | FACT       | false
      I'm starting Dutch lessons in January.           | true  | EVENT      | true
      My sister is visiting on October 12th.           | true  | EVENT      | true
      I'm flying to Tokyo on June 20th.                | true  | EVENT      | true
      I take piano lessons on Saturdays.               | false | FACT       | false
      That taught me a valuable lesson about money.    | false | FAILURE_PATTERN | false
      Lesson learned: back up your files.              | false | FAILURE_PATTERN | false
      It's amazing how fast they grow.                 | false | FACT       | false
      """)
  void typeByRule(String sentence, boolean dated, MemoryType expected, boolean plan) {
    TypeRules.Typed t = TypeRules.type(sentence, Tense.of(sentence), dated);
    assertThat(t.type()).isEqualTo(expected);
    assertThat(t.plan()).isEqualTo(plan);
  }
}
