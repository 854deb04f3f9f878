package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The answer rules of issue 20.5, round twelve: a list takes short items from the other sentences,
 * "what does X do to Y?" is answered with what is done for that purpose, "what did X share...?"
 * with the object of "share" in the sentence, and "what does it remind her of?" with what follows
 * "reminds me of". Each test also runs
 * with its rule switched off, to show that the rule gives the answer. The exchanges are written for
 * this test.
 */
class ListsAndMeansTest {
  @Test
  void aListTakesOnlyShortItemsFromOtherSentences() {
    List<Evidence> ev = turns("Ines: I play the bass clarinet in a small orchestra.", "Ines: And I play the alto flute at home.",
        "Ines: Playing keeps me calm after the long and noisy days at the office downtown.");
    String question = "What instruments does Ines play?";
    String answer = ask(new ExtractiveAnswerGenerator(), question, ev);
    assertThat(answer).contains("bass clarinet").contains("alto flute").doesNotContain("noisy");
    // off: the third sentence's long phrase joins the list
    assertThat(ask(new ExtractiveAnswerGenerator(ExtractiveAnswerGenerator.DEFAULT_MIN_SUPPORT,
        ExtractiveAnswerGenerator.AGREE, true, Integer.MAX_VALUE), question, ev)).contains("noisy");
  }

  @Test
  void aListsItemsAreTheObjectsOfItsVerb() {
    String question = "What instruments does Ines play?";
    assertThat(AnswerSpans.objectOfAListsVerb(question, "Since spring I play the violin with my cousin.")).isEqualTo("violin");
    // off: the plain phrase of the same sentence is the run after the echoed words
    assertThat(AnswerSpans.phrase(question, "Since spring I play the violin with my cousin.")).isNotEqualTo("violin");
    // only a list question's verb counts; "what did X do" has none of its own
    assertThat(AnswerSpans.objectOfAListsVerb("What did Ines do?", "I play the violin.")).isNull();
    List<Evidence> ev = turns("Ines: I play the cello in a small orchestra.",
        "Ines: Since spring I also play the piano with my cousin at weekends.");
    assertThat(ask(new ExtractiveAnswerGenerator(), question, ev)).contains("cello").contains("piano");
  }

  @Test
  void theMeansOfAPurposeIsWhatIsDoneBeforeIt() {
    String question = "What has Ola done to feel closer to her neighbours?";
    String body = "And, I joined the street choir to feel closer to my neighbours, which was fun.";
    assertThat(AnswerSpans.means("feel", body)).isEqualTo("joined the street choir");
    assertThat(AnswerForm.purposeOfAMeans(question)).isEqualTo("feel");
    assertThat(AnswerForm.purposeOfAMeans("What does Ola do on Sundays?")).isNull();
    // the rule answers the phrase question; without it the run after the echoed words answers
    EvidenceSentences.Sentence s = EvidenceSentences.of(turns("Ola: " + body)).get(0);
    assertThat(new AnswerSpans().typedSpan(AnswerForm.PHRASE, question, s)).isEqualTo("joined the street choir");
    assertThat(AnswerSpans.phrase(question, body)).isNotEqualTo("joined the street choir");
    // a sentence that does not say "to" and the purpose's verb keeps the plain phrase
    assertThat(AnswerSpans.means("feel", "I joined the street choir last spring.")).isNull();
  }

  @Test
  void theObjectOfTheQuestionsOwnVerbAnswers() {
    String question = "What does Ines write on the fridge to help her stay organised?";
    String body = "On the fridge, I wrote down some weekly recipes and tips to help me stay on top of things through long busy working weeks.";
    assertThat(AnswerSpans.objectOfTheQuestionsVerb(question, body)).isEqualTo("weekly recipes and tips");
    // off: the longest run of new words, after "help me stay", answers
    assertThat(AnswerSpans.phrase(question, body)).doesNotContain("recipes");
    // the object ends before a preposition and skips the asked name; a verb without an object of its own gives none
    assertThat(AnswerSpans.objectOfTheQuestionsVerb("What did Ola share with her book club?",
        "Ola shared Ola's new poem with her book club last week.")).isEqualTo("new poem");
    assertThat(AnswerSpans.objectOfTheQuestionsVerb("What did Ola cook?", "a pan of vegetables cooking on a stove")).isNull();
    // a verb that says little of its own ("do", "make", "start") is left to the other rules
    assertThat(AnswerSpans.objectOfTheQuestionsVerb("What did Ola start?", "Ola started learning the piano.")).isNull();
  }

  @Test
  void anObjectPronounMayStandBeforeTheStrandedPreposition() {
    String question = "What does the photo on Ola's desk remind her of?";
    String body = "Having that picture on my desk reminds me of the summers at the lake with my sister.";
    assertThat(AnswerSpans.objectOfStrandedPreposition(question, body)).isEqualTo("summers at the lake with my sister");
    // the sentence's pronoun is skipped too: without it "reminds of" would be needed
    assertThat(AnswerSpans.objectOfStrandedPreposition("What is Ola afraid of?", "I'm afraid of deep water.")).isEqualTo("deep water");
  }

  private static List<Evidence> turns(String... lines) {
    return ExtractiveSpansTest.turns("2024-02-05", lines);
  }

  private static String ask(ExtractiveAnswerGenerator answerer, String question, List<Evidence> evidence) {
    return ExtractiveSpansTest.answerWith(answerer, question, evidence);
  }
}
