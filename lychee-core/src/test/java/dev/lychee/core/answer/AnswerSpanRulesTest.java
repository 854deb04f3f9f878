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

/**
 * The span rules of issue 20.5, round six: a phrase answers what, not when; a "who" answer is a
 * name the evidence gives as a name (or a relative after a possessive), and a sentence naming no one
 * holds no answer to "who"; when no near tie holds the asked kind of span, a sentence further down
 * that holds one answers; "what forum did X join?" is answered with the words before "forum"; "what
 * colour...?" with a colour. The conversations are written for this test.
 */
class AnswerSpanRulesTest {
  private final ExtractiveAnswerGenerator answerer = new ExtractiveAnswerGenerator();

  /** Evidence items (windows), each "Name: words" lines split on " / ", in the order given, all said on one day (shared by the answer tests). */
  static List<Evidence> items(String... items) {
    List<Evidence> out = new ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      Candidate c = new Candidate("c" + i, CandidateKind.WINDOW, "ns", items[i].replace(" / ", "\n"), "s1",
          List.of(), LocalDateTime.parse("2024-05-06T10:00"), TemporalScope.NONE, null, null, List.of(), List.of(),
          1.0 - i * 0.05, 0.5, null);
      out.add(new Evidence(i + 1, c.score(), c));
    }
    return out;
  }

  private String ask(String question, List<Evidence> evidence) {
    return answerer.answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence).text();
  }

  @Test
  void aPhraseAnswersWhatNotWhen() {
    // "volunteer at yesterday" holds as many words as "old atlas"; its time word does not count
    assertThat(ask("What did Nina donate to the library?",
        items("Nina: I donated my old atlas to the library I volunteer at yesterday.")))
        .isEqualTo("old atlas");
  }

  @Test
  void aCapitalisedFirstWordIsNoNameUnlessTheItemNamesItSoElsewhere() {
    AnswerSpans spans = new AnswerSpans();
    String q = "Who is Ada's choir conductor?";
    List<EvidenceSentences.Sentence> s = EvidenceSentences.of(items(
        "Ada: Come to the choir rehearsal, the conductor wants more singers.",
        "Ada: Ask Marta about the choir. / Ben: Marta is lovely.",
        "Ada: My aunt conducts the choir."));
    // an imperative's first word names no one
    assertThat(spans.typedSpan(AnswerForm.PERSON, q, s.get(0))).isNull();
    assertThat(spans.typedSpan(AnswerForm.PERSON, q, s.get(1))).isEqualTo("Marta");
    // a first word the item names within a sentence is a name
    assertThat(spans.typedSpan(AnswerForm.PERSON, q, s.get(2))).isEqualTo("Marta");
    // a relative after a possessive answers "who" when no name does
    assertThat(spans.typedSpan(AnswerForm.PERSON, q, s.get(3))).isEqualTo("aunt");
  }

  @Test
  void aSentenceNamingNoOneHoldsNoAnswerToWho() {
    // the imperative holds every word of the question; the sentence that names the conductor holds
    // only the speaker, yet it is the only one that can answer "who"
    List<Evidence> ev = items(
        "Ada: Come to the choir rehearsal, the conductor wants more singers.",
        "Ada: Our teacher there is Marta.");
    assertThat(ask("Who is Ada's choir conductor?", ev)).isEqualTo("Marta");
  }

  @Test
  void aNameTheQuestionHoldsIsNoAnswerEvenWithAPossessive() {
    assertThat(ask("What country is Ada's grandma from?",
        items("Ada: This scarf was a gift from my grandma in Ada's home country, Norway.")))
        .isEqualTo("Norway");
  }

  @Test
  void whatXIsAnsweredWithTheWordsBeforeX() {
    assertThat(AnswerForm.headNoun("What forum did Ada join?")).isEqualTo("forum");
    assertThat(AnswerForm.headNoun("What did Ada join?")).isNull();
    assertThat(ask("What forum did Ada join?",
        items("Ada: Last night I joined a vintage synth forum and talked for hours.")))
        .isEqualTo("vintage synth forum");
  }

  @Test
  void whatColourIsAnsweredWithAColour() {
    assertThat(AnswerSpans.colour("A deep forest green, my favourite.")).isEqualTo("deep forest green");
    assertThat(AnswerSpans.colour("It is finally fixed.")).isNull();
    // the describing words follow the last function word before the colour: "a woman with orange boots"
    assertThat(AnswerSpans.colour("A photo of a woman with orange boots and a red scarf")).isEqualTo("orange");
    // the first sentence holds every word of the question but no colour
    List<Evidence> ev = items(
        "Ada: The colour of my bike was the first thing the bike shop asked about.",
        "Ada: My bike is sky blue now.");
    assertThat(ask("What colour is Ada's bike?", ev)).isEqualTo("sky blue");
  }
}
