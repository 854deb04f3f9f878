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
 * A question that ends on a preposition ("what is she allergic to?") is answered by what follows the
 * same word and preposition in the sentence, even where a longer run of new words stands elsewhere
 * in it; without that pair the usual phrase rules apply. The sentences are written for this test.
 */
class StrandedPrepositionTest {
  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource(delimiter = '|', textBlock = """
      What is Theo allergic to?            | Theo is allergic to cats, so Theo might skip the party if Pepper is around. | cats
      What is Ines afraid of?              | Ines has always been afraid of deep water and big waves.                   | deep water and big waves
      What is Bruno interested in?         | Lately Bruno got interested in the history of clocks, he says.             | history of clocks
      What was the fundraiser for?         | The fundraiser for the animal shelter is on Friday.                         | animal shelter
      What did Ada donate her old car to?  | I finally donated my old car to a homeless shelter downtown!               | homeless shelter downtown
      """)
  void theObjectAfterTheAskedWordAndPrepositionAnswers(String question, String sentence, String answer) {
    assertThat(AnswerSpans.phrase(question, sentence)).isEqualTo(answer);
  }

  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource(delimiter = '|', textBlock = """
      What is Theo allergic to?       | Theo sneezes near cats and skips parties with dogs.
      What is the gift for?           | I wrapped it for her, it is a gift.
      What kind of tea does Ada like? | She likes tea with mint.
      """)
  void withoutThePairTheUsualPhraseRulesApply(String question, String sentence) {
    assertThat(AnswerSpans.objectOfStrandedPreposition(question, sentence.split("\\s+"))).isNull();
  }

  @Test
  void aSentenceWithTheAskedPairBeatsALaterOneThatOnlySharesTheTopic() {
    // present tense prefers the latest of near ties; "better for my allergy" was said later but does
    // not say what Theo is allergic to
    String q = "What is Theo allergic to?";
    List<Evidence> evidence = List.of(
        evidence(1, "Theo: By the way, I'm allergic to cats, so I might skip your party.", "2024-03-04T18:00"),
        evidence(2, "Theo: Probably wise. And better for my allergy too.", "2024-06-01T09:00"));
    assertThat(new ExtractiveAnswerGenerator().answer(Question.of("ns", q), RecallPlan.singleRoute(q), evidence).text())
        .isEqualTo("cats");
  }

  private static Evidence evidence(int rank, String text, String at) {
    Candidate c = new Candidate("c" + rank, CandidateKind.RAW_TURN, "ns", text, "s" + rank, List.of(),
        LocalDateTime.parse(at), TemporalScope.NONE, null, null, List.of(), List.of(), 1.0, 0.5, null);
    return new Evidence(rank, 1.0 - 0.1 * rank, c);
  }
}
