package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TemporalScope;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The span rules of issue 20.5, round eleven: "how did X feel / describe...?" is answered with the
 * judgement after "felt" or a copula, "why...?" with the reason after "because" or the purpose after
 * "to", "how many...?" with a number that is not a year, and "what X...?" with "X of ..." when no
 * word before X describes it; a question that ends "and why?" or "and with whom?" gets both answers. Each span test also shows what the plain phrase rule (the rule switched off) would answer.
 * The sentences are written for this test.
 */
class FeelingsAndReasonsTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "How did Ines feel after the concert? | true",
      "How does Bruno describe his new flat? | true",
      "How was Ines's trip to the coast? | true",
      "How is Bruno's bakery doing? | true",
      "What did Ines think of the film? | true",
      "How did Ines get to the coast? | false",
      "How many cats does Bruno have? | false",
      "What did Ines bake for the party? | false"})
  void aFeelingQuestionAsksHowSomeoneFeltOrJudged(String question, boolean feeling) {
    assertThat(AnswerForm.asksForAFeeling(question)).isEqualTo(feeling);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "Why did Ines move to the coast? | true",
      "What made Bruno decide to open a bakery? | true",
      "What did Bruno bake? | false",
      "Where did Ines move? | false"})
  void aReasonQuestionAsksWhy(String question, boolean why) {
    assertThat(AnswerForm.asksWhy(question)).isEqualTo(why);
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      // the words after a copula, without intensifiers, not the place before it
      "How did Ines describe the hike? | The hike along the ridge was so peaceful, honestly. | peaceful | along the ridge",
      // the judgement joined by "and" is kept whole
      "How did Ines describe the hike? | It was really peaceful and quiet. | peaceful and quiet | peaceful and quiet",
      // "felt" first, though a copula stands before it
      "How did Ines feel at the lake? | It was one evening where I felt tiny and calm. | tiny and calm | tiny and calm",
      // the judgement ends before "to" and what it is about
      "How does Bruno feel about running the bakery? | It feels great to have my own place. | great | place",
      // a clause after "and" ends it
      "How did Bruno describe the market? | The market was lively and it made my day. | lively | lively and it made"})
  void aFeelingIsTheJudgementAfterFeltOrACopula(String question, String sentence, String feeling, String phrase) {
    assertThat(AnswerSpans.feeling(question, sentence)).isEqualTo(feeling);
    if (!feeling.equals(phrase)) {
      assertThat(AnswerSpans.phrase(question, sentence)).isEqualTo(phrase);
    }
  }

  @Test
  void aSentenceThatJudgesNothingHoldsNoFeeling() {
    assertThat(AnswerSpans.feeling("How did Ines feel about the hike?", "We went on a hike near the lake.")).isNull();
    // the words after the copula are the question's own
    assertThat(AnswerSpans.feeling("How did Ines feel about the hike?", "The hike was a hike.")).isNull();
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      "Why did Ines move to the coast? | I moved to the coast because the city was too loud. | the city was too loud",
      "Why did Ines move to the coast? | I moved 'cause my sister lives there. | my sister lives",
      "Why did Bruno sign the card? | We signed it to show our gratitude. | to show our gratitude",
      // "to the park" is a place, not a purpose
      "Why did Bruno walk to the park? | I walked to the park to clear my head. | to clear my head"})
  void aReasonFollowsBecauseOrIsThePurposeAfterTo(String question, String sentence, String reason) {
    assertThat(AnswerSpans.reason(question, sentence)).isEqualTo(reason);
    assertThat(AnswerSpans.phrase(question, sentence)).isNotEqualTo(reason);
  }

  @Test
  void aReasonMadeOfTheQuestionsWordsIsNone() {
    assertThat(AnswerSpans.reason("Why did Bruno decide to run for office?", "Last week I decided to run for office."))
        .isNull();
  }

  @ParameterizedTest(name = "{0} / {1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      // the first number is a year, which counts nothing
      "How many goats does Bruno have? | In 2022 I got three goats. | three goats",
      // nor does the ISO date the encoder writes into a record
      "How many goats does Bruno have? | Bruno got a goat last week (2022-11-03) and has three goats. | three goats",
      // unless the question asks about years
      "How many years ago did Bruno move? | Bruno moved in 2019, three years ago. | 2019"})
  void aYearIsNoQuantity(String question, String sentence, String quantity) {
    assertThat(AnswerSpans.quantity(question, sentence)).isEqualTo(quantity);
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @CsvSource(delimiter = '|', value = {
      // no word before "painting" describes it; the "of" after it does
      "What painting does Ines have in her hall? | a photo of a painting of a lighthouse at dusk | painting of a lighthouse at dusk",
      // a word before it still comes first
      "What painting does Ines have in her hall? | I hung my seascape painting of the bay there. | seascape painting"})
  void aNounIsDescribedByTheOfAfterIt(String question, String sentence, String kind) {
    assertThat(AnswerSpans.kind(question, AnswerForm.headNoun(question), sentence)).isEqualTo(kind);
  }

  @Test
  void theSentenceThatJudgesAnswersOverTheTopicLine() {
    // the first sentence names the topic and holds most of the question's words; the line after it
    // says how it was
    String q = "How did Ines feel about the concert in the park?";
    assertThat(answer(q, "Ines: I went to the concert in the park with my brother. It was magical!", "Bruno: Nice!"))
        .isEqualTo("magical");
  }

  @Test
  void theSentenceThatGivesAReasonAnswersWhy() {
    String q = "Why did Bruno sign up for the pottery class?";
    assertThat(answer(q, "Bruno: I signed up for the pottery class on Monday.",
        "Bruno: I joined the pottery class to slow down after work.")).isEqualTo("to slow down after work");
  }

  @Test
  void aSecondQuestionIsAnsweredToo() {
    // the form comes from the first part ("where"), not from "with whom"; the companion after "with"
    // is added, and a route is answered whole
    String where = "Where is Bruno hiking in May and with whom?";
    String[] items = {"Bruno: I'm hiking from Oslo to Bergen in May with Ida, on the old trail."};
    assertThat(answer(where, items)).isEqualTo("from Oslo to Bergen, with Ida");
    assertThat(AnswerForm.of(where)).isEqualTo(AnswerForm.PERSON);
    // the reason of "...and why?": what the trip was for
    assertThat(answer("When did Ines go to Porto and why?", "Ines: I went to Porto on 3 May 2024 for a workshop."))
        .isEqualTo("3 May 2024, for a workshop");
  }

  @Test
  void aRouteIsAnsweredWhole() {
    assertThat(answer("Where is Bruno hiking in May?", "Bruno: I'm hiking from Oslo to Bergen in May, on the old trail."))
        .isEqualTo("from Oslo to Bergen");
    assertThat(answer("Where is Bruno hiking in May?", "Bruno: I'm hiking in Oslo in May, on the old trail."))
        .isEqualTo("Oslo");
  }

  /** Turns said at the same time, ranked in order. */
  private static String answer(String question, String... items) {
    List<Evidence> evidence = new ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      Candidate c = new Candidate("c" + i, CandidateKind.RAW_TURN, "ns", items[i], "s1", List.of(),
          LocalDateTime.parse("2024-05-06T10:00"), TemporalScope.NONE, null, null, List.of(), List.of(), 1.0, 0.5, null);
      evidence.add(new Evidence(i + 1, 1.0 - 0.1 * i, c));
    }
    return new ExtractiveAnswerGenerator().answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence)
        .text();
  }
}
