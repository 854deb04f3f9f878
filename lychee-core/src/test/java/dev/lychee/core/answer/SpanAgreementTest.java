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
 * The sentence choice rules of issue 20.5, round ten: the best sentences' spans vote on each other
 * (a fact told by several evidence items wins over one told once), and a sentence without a
 * speaker (a record in the third person) counts as told of the first speaker it names when the
 * question asks about another. Each test also runs with its rule switched off, to show the rule
 * is what gives the answer. The sentences are written for this test.
 */
class SpanAgreementTest {
  private static final String BAKE = "What did Ines bake for the party?";

  @Test
  void aSpanThatOtherItemsTellToo() {
    // the first turn holds more words the question lacks and ranks first; the two items after it
    // tell the same thing, which agreement makes the answer
    String[] items = {"Ines: I baked for the party with oat flour.", "Ines: I baked a lemon tart for the party.",
        "Ines baked a lemon tart for the party."};
    assertThat(answer(new ExtractiveAnswerGenerator(), BAKE, items)).isEqualTo("lemon tart");
    assertThat(answer(new ExtractiveAnswerGenerator(ExtractiveAnswerGenerator.DEFAULT_MIN_SUPPORT, 0, true), BAKE, items))
        .isEqualTo("oat flour");
  }

  @Test
  void aRecordAboutAnotherSpeakerCountsAsTheirs() {
    // the record tells of Bruno, though it names Ines too; the question asks about Ines, so her own
    // turn answers
    String[] items = {"Bruno told Ines he baked bread rolls for the party.", "Ines: For the party I baked a lemon tart.",
        "Bruno: Nice!"};
    assertThat(answer(new ExtractiveAnswerGenerator(), BAKE, items)).isEqualTo("lemon tart");
    assertThat(answer(new ExtractiveAnswerGenerator(ExtractiveAnswerGenerator.DEFAULT_MIN_SUPPORT,
        ExtractiveAnswerGenerator.AGREE, false), BAKE, items)).isEqualTo("baked bread rolls");
  }

  @Test
  void theSubjectOfARecordIsTheFirstSpeakerItNames() {
    List<Evidence> evidence = evidence("Bruno told Ines he baked bread rolls.");
    EvidenceSentences.Sentence record = EvidenceSentences.of(evidence).get(0);
    assertThat(ExtractiveAnswerGenerator.subject(record, java.util.Set.of("Ines", "Bruno"))).isEqualTo("Bruno");
    assertThat(ExtractiveAnswerGenerator.subject(record, java.util.Set.of("Maya"))).isNull();
  }

  /** Turns ("Name: ...") are raw turns, anything else a record; all said at the same time, ranked in order. */
  private static List<Evidence> evidence(String... items) {
    List<Evidence> evidence = new ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      CandidateKind kind = items[i].matches("^\\w+: .*") ? CandidateKind.RAW_TURN : CandidateKind.RECORD;
      Candidate c = new Candidate("c" + i, kind, "ns", items[i], "s1", List.of(), LocalDateTime.parse("2024-05-06T10:00"),
          TemporalScope.NONE, null, null, List.of(), List.of(), 1.0, 0.5, null);
      evidence.add(new Evidence(i + 1, 1.0 - 0.1 * i, c));
    }
    return evidence;
  }

  private static String answer(ExtractiveAnswerGenerator answerer, String question, String... items) {
    return answerer.answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence(items)).text();
  }
}
