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

/**
 * The phrase bounds of issue 20.5, round seven: a phrase ends where the next clause begins (a finite
 * auxiliary or copula, a subject pronoun), starts at the object of a past verb the question did not
 * use, and leaves out words that say "now". The sentences are written for this test.
 */
class PhraseBoundsTest {
  @Test
  void aPhraseEndsBeforeACopulaThatOpensThePredicate() {
    assertThat(AnswerSpans.phrase("What did the bake sale raise money for?",
        "Raising money for animal rescue is so rewarding.")).isEqualTo("animal rescue");
    // a name followed by its predicate: "Lisbon is a must-see" answers with the name
    assertThat(AnswerSpans.phrase("Which city did Omar suggest to Lena?", "Lisbon is a must-see!")).isEqualTo("Lisbon");
  }

  @Test
  void aPhraseEndsBeforeASubjectPronounThatOpensTheNextClause() {
    assertThat(AnswerSpans.phrase("What is the name of Lena's parrot?", "His name is Pico and he's a chatterbox."))
        .isEqualTo("Pico");
  }

  @Test
  void aPhraseInFrontOfItsClauseIsNoAnswer() {
    // the subject pronoun after "On Sundays" opens the clause that answers; it does not end the answer
    assertThat(AnswerSpans.phrase("What does Tove do with her sister?", "On Sundays I go rowing with my sister."))
        .isEqualTo("go rowing");
  }

  @Test
  void aPhraseStartsAtTheObjectOfAPastVerbTheQuestionDidNotUse() {
    // "stumbled upon this": a verb, a particle, a determiner; the answer is what follows
    assertThat(AnswerSpans.phrase("What did Lena spot at the market?", "I stumbled upon this tiny brass compass there."))
        .isEqualTo("tiny brass compass");
    // an irregular past form counts as a verb too
    assertThat(AnswerSpans.phrase("What did Omar pick for the stew?", "So I threw in some smoked paprika."))
        .isEqualTo("threw in some smoked paprika");
    assertThat(AnswerSpans.phrase("What did Omar pick for the stew?", "So I took some smoked paprika."))
        .isEqualTo("smoked paprika");
    // a present verb or a noun before the determiner stays: "make a difference", "completion of a degree"
    assertThat(AnswerSpans.phrase("What does Lena hope her letters achieve?", "I hope they make a difference."))
        .isEqualTo("make a difference");
    assertThat(AnswerSpans.phrase("What was Omar's certificate for?", "It marks completion of a nursing degree."))
        .isEqualTo("marks completion of a nursing degree");
  }

  @Test
  void whatSomeoneDidKeepsTheVerb() {
    assertThat(AnswerSpans.asksWhatWasDone("What did Lena do at the weekend market?")).isTrue();
    assertThat(AnswerSpans.asksWhatWasDone("What did Lena spot at the market?")).isFalse();
    assertThat(AnswerSpans.phrase("What did Lena do at the weekend market?", "I finished a small watercolour of the stalls."))
        .isEqualTo("finished a small watercolour of the stalls");
  }

  @Test
  void nowIsNoPartOfWhatAPhraseSays() {
    assertThat(AnswerSpans.phrase("What instrument is Lena learning?", "I'm learning the cello now.")).isEqualTo("cello");
  }

  @Test
  void theAnswererCutsTheBoundedPhrase() {
    Candidate c = new Candidate("c0", CandidateKind.WINDOW, "ns",
        "Omar: How was the market?\nLena: I came across this tiny brass compass and it's still ticking!", "s1", List.of(),
        LocalDateTime.parse("2024-05-06T10:00"), TemporalScope.NONE, null, null, List.of(), List.of(), 1.0, 0.5, null);
    String q = "What did Lena find at the market?";
    assertThat(new ExtractiveAnswerGenerator().answer(Question.of("ns", q), RecallPlan.singleRoute(q),
        List.of(new Evidence(1, 1.0, c))).text()).isEqualTo("tiny brass compass");
  }
}
