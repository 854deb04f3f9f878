package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Provenance;
import dev.lychee.api.Question;
import dev.lychee.api.RawTurn;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The answer rules of issue 20.5, round twelve: a list takes short items from the other sentences,
 * and "what does X do to Y?" is answered with what is done for that purpose. Each test also runs
 * with its rule switched off, to show that the rule gives the answer. The exchanges are written for
 * this test.
 */
class ListsAndMeansTest {
  @Test
  void aListTakesOnlyShortItemsFromOtherSentences() {
    List<Evidence> ev = turns("Ines: I play the cello in a small orchestra.", "Ines: And I play the flute at home.",
        "Ines: Playing keeps me calm after the long and noisy days at the office downtown.");
    String question = "What instruments does Ines play?";
    String answer = ask(new ExtractiveAnswerGenerator(), question, ev);
    assertThat(answer).contains("cello").contains("flute").doesNotContain("noisy");
    // off: the third sentence's long phrase joins the list
    assertThat(ask(new ExtractiveAnswerGenerator(ExtractiveAnswerGenerator.DEFAULT_MIN_SUPPORT,
        ExtractiveAnswerGenerator.AGREE, true, Integer.MAX_VALUE), question, ev)).contains("noisy");
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

  private static List<Evidence> turns(String... lines) {
    List<Evidence> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      RawTurn t = new RawTurn("ns", new TurnRef("s1", i), Role.USER, lines[i].substring(0, colon),
          lines[i].substring(colon + 2), LocalDateTime.parse("2024-02-05T10:00"));
      out.add(new Evidence(i + 1, 1.0 - i * 0.1, Candidate.ofTurn(t, 1.0 - i * 0.1, 0.5, Provenance.EMPTY)));
    }
    return out;
  }

  private static String ask(ExtractiveAnswerGenerator answerer, String question, List<Evidence> evidence) {
    return answerer.answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence).text();
  }
}
