package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.TemporalScope;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 20.5, round fifteen: a "what X did...?" answer that only describes X ("old kayak") takes
 * the name its speaker gives X a line or two later, when the other speaker asks which one. The
 * exchanges are written for this test.
 */
class NamedLaterTest {
  private final ExtractiveAnswerGenerator answerer = new ExtractiveAnswerGenerator();

  /** One window: the lines "Name: words", split on " / ". */
  private static List<Evidence> window(String lines) {
    Candidate c = new Candidate("w", CandidateKind.WINDOW, "ns", lines.replace(" / ", "\n"), "s1", List.of(),
        LocalDateTime.parse("2024-05-02T10:00"), TemporalScope.NONE, null, null, List.of(), List.of(), 1.0, 0.5, null);
    return List.of(new Evidence(1, 1.0, c));
  }

  @Test
  void theNameTheSpeakerGivesLaterAnswers() {
    List<Evidence> ev = window("Ines: I restored the old kayak that was rotting behind the boathouse. / "
        + "Bram: Nice, is it the yellow one with the dented nose? / Ines: Yes, the yellow Tidewater, good as new.");
    assertThat(ExtractiveSpansTest.answerWith(answerer, "What kayak did Ines restore?", ev))
        .isEqualTo("yellow Tidewater");
  }

  @Test
  void theSameFactToldInAnotherItemLendsItsNextLines() {
    // the turn alone ranks first and has no next line; the window it belongs to has
    List<Evidence> ev = new ArrayList<>(ExtractiveSpansTest.turns("2024-05-02",
        "Ines: I restored the old kayak that was rotting behind the boathouse."));
    Evidence w = window("Ines: I restored the old kayak that was rotting behind the boathouse. / "
        + "Bram: Nice, is it the yellow one with the dented nose? / Ines: Yes, the yellow Tidewater, good as new.").get(0);
    ev.add(new Evidence(2, 0.9, w.candidate()));
    assertThat(ExtractiveSpansTest.answerWith(answerer, "What kayak did Ines restore?", ev))
        .isEqualTo("yellow Tidewater");
  }

  @Test
  void theOtherSpeakersNamesAndAnAnswerThatNamesStayOut() {
    // the name comes from the other speaker: it is a guess, not the answer
    List<Evidence> guessed = window("Ines: I restored the old kayak that was rotting behind the boathouse. / "
        + "Bram: Nice, I bet it is the yellow Tidewater from Oslo.");
    assertThat(ExtractiveSpansTest.answerWith(answerer, "What kayak did Ines restore?", guessed))
        .isEqualTo("old kayak");
    // an answer that names already ("Tidewater kayak") is kept
    List<Evidence> named = window("Ines: I restored the Tidewater kayak that was rotting behind the boathouse. / "
        + "Ines: My cousin Oskar helped with the paint.");
    assertThat(ExtractiveSpansTest.answerWith(answerer, "What kayak did Ines restore?", named))
        .isEqualTo("Tidewater kayak");
  }

  @Test
  void aNameIsACapitalisedWordWithinTheSentenceWithWhatDescribesIt() {
    assertThat(AnswerSpans.nameWithin("What kayak did Ines restore?", "Yes, the yellow Tidewater Classic, good as new."))
        .isEqualTo("yellow Tidewater Classic");
    assertThat(AnswerSpans.nameWithin("What kayak did Ines restore?", "Yes, it was Ines who found it in May.")).isNull();
  }
}
