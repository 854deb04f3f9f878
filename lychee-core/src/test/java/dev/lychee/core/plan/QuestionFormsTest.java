package dev.lychee.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuestionFormsTest {
  /** The main clause's first auxiliary decides; "likely" anywhere asks for an inference too. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "Would Dana enjoy a cooking class?|true",
      "Could Omar be a vegetarian?|true",
      "What might Priya's degree be in?|true",
      "What job could Omar pursue after the army?|true",
      "Which hiking boots would Dana buy for the trip?|true",
      "What pets wouldn't bother Priya's allergies?|true",
      "What pets wouldn\u2019t bother Priya\u2019s allergies?|true",
      "Is it likely that Omar owns a car?|true",
      "Which bakery likely hired Dana last spring?|true",
      // a stated fact, whatever a clause below the main one says
      "What does Omar feel he could do at the lake?|false",
      "Did Dana say she would move to Lisbon?|false",
      "Where did Priya buy the bicycle she would ride?|false",
      "What is Dana's favourite dish?|false",
      "When did Omar run the marathon?|false",
      // the month is not an auxiliary
      "In May, what would Dana bring to the picnic?|true",
      "What did Omar do in May?|false"})
  void hypotheticalByTheMainClause(String question, boolean expected) {
    assertThat(QuestionForms.hypothetical(question)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "Would Dana enjoy a cooking class?|true",
      "Is it likely that Omar owns a car?|true",
      "Did Priya move to Oslo?|true",
      "What might Priya's degree be in?|false",
      "In what ways does Omar help?|false",
      "Around which holiday did Dana travel?|false"})
  void yesNoByTheFirstWord(String question, boolean expected) {
    assertThat(QuestionForms.yesNo(question)).isEqualTo(expected);
  }
}
