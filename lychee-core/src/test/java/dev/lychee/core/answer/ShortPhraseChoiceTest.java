package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TemporalScope;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sentence choice and list rules of issue 20.5, round nine: a sentence whose phrase answer would
 * be one word in lower case loses the near-tie window, a list question may put one word before its
 * plural noun or ask "what are X's hobbies?", and a pronoun after "so", "and"... opens a joined
 * clause, not the main clause of a fronted phrase. The sentences are written for this test.
 */
class ShortPhraseChoiceTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "others | true",
      "stuff. | true",
      "  considering  | true",
      "Pip | false",
      "mountain views | false",
      "NASA | false",
      "' ' | false"})
  void aOneWordPhraseIsOneWordInLowerCase(String span, boolean oneWord) {
    assertThat(ExtractiveAnswerGenerator.oneLowerCaseWord(span)).isEqualTo(oneWord);
  }

  @Test
  void aSentenceThatTellsInAFewWordsBeatsAOneWordPhraseAboutAsGood() {
    // both hold every word of the question; the first would answer with "others" alone and wins
    // without the rule (it ranks first), the second tells what she loves
    String q = "What does Ines love about the weekly hiking club trips?";
    assertThat(answer(q, "Ines: Honestly I love the weekly hiking club trips with the others.",
        "Ines: I love the weekly hiking club trips with mountain views.")).isEqualTo("mountain views");
  }

  @Test
  void aOneWordNameStillAnswers() {
    // a capitalised word is a name and may be the whole answer: no sentence loses for it
    String q = "What does Ines call the weekly hiking club trips?";
    assertThat(answer(q, "Ines: Honestly I call the weekly hiking club trips Wanderday.",
        "Ines: I call the weekly hiking club trips my mountain escape.")).isEqualTo("Wanderday");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "What activities does Ines do with her club? | true",
      "What outdoor activities has Ines done with her club? | true",
      "What video games does Bruno play? | true",
      "What are Ines's hobbies? | true",
      "What are her favourite desserts? | true",
      "What does Ines do with her club? | false",
      "What did Bruno play on Friday? | false",
      "What is Ines's hobby? | false",
      "What are the odds? | false",
      "What game did Bruno play? | false"})
  void aListQuestionMayPutOneWordBeforeItsPluralNoun(String question, boolean list) {
    assertThat(AnswerForm.asksForAList(question)).isEqualTo(list);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      // a pronoun after a conjunction opens a joined clause: the fronted-phrase reading does not apply
      "What is Bruno allergic to? | I'm allergic to cats, so I might skip your party. | cats",
      "What is Bruno allergic to? | I'm allergic to pollen and I sneeze all spring. | pollen",
      // a phrase put in front of its clause still gives the clause after the pronoun
      "What does Tove do with her sister? | On Sundays I go rowing with my sister. | go rowing"})
  void aPronounAfterAConjunctionOpensAJoinedClause(String question, String sentence, String phrase) {
    assertThat(AnswerSpans.phrase(question, sentence)).isEqualTo(phrase);
  }

  private static String answer(String question, String... items) {
    List<Evidence> evidence = new java.util.ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      Candidate c = new Candidate("c" + i, CandidateKind.RAW_TURN, "ns", items[i], "s1", List.of(),
          LocalDateTime.parse("2024-05-06T10:00"), TemporalScope.NONE, null, null, List.of(), List.of(), 1.0, 0.5, null);
      evidence.add(new Evidence(i + 1, 1.0 - 0.1 * i, c));
    }
    return new ExtractiveAnswerGenerator().answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence)
        .text();
  }
}
