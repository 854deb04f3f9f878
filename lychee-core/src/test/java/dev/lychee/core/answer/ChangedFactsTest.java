package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Answer;
import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.Provenance;
import dev.lychee.api.Question;
import dev.lychee.api.RawTurn;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.core.Lychee;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Facts that changed over a conversation: a question about the present is answered with the latest
 * value, and a question about what something was before (or how it changed) with the latest value
 * and the one it replaced. The conversations are written for this test; records stay append-only,
 * so both values are in memory and the answerer tells them apart by when they were said.
 */
class ChangedFactsTest {
  private final ExtractiveAnswerGenerator answerer = new ExtractiveAnswerGenerator();

  /** Turns "date|Speaker: words", each its own evidence item, ranked in the order given. */
  private static List<Evidence> said(String... lines) {
    List<Evidence> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String[] dateAndTurn = lines[i].split("\\|", 2);
      String turn = dateAndTurn[1];
      int colon = turn.indexOf(':');
      RawTurn t = new RawTurn("ns", new TurnRef("s" + i, 0), Role.USER, turn.substring(0, colon),
          turn.substring(colon + 2), LocalDateTime.parse(dateAndTurn[0] + "T10:00"));
      out.add(new Evidence(i + 1, 1.0 - i * 0.1, Candidate.ofTurn(t, 1.0 - i * 0.1, 0.5, Provenance.EMPTY)));
    }
    return out;
  }

  private String ask(String question, List<Evidence> evidence) {
    return answerer.answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence).text();
  }

  // the earlier value ranks first on purpose: the answer must follow time, not rank
  private static final List<Evidence> RENT = said(
      "2024-01-10|Priya: My rent is 1200 euros a month, which is fine for now.",
      "2024-06-02|Priya: The landlord raised it, so my rent is 1450 euros a month since May.",
      "2024-06-02|Sam: Ouch, that is a lot.");

  private static final List<Evidence> JOB = said(
      "2023-02-14|Tomas: I work at Brightwave as a junior tester.",
      "2023-02-14|Ines: Do you like it?",
      "2023-09-30|Tomas: I quit in August, and I work at Nordlicht now as a team lead.");

  private static final List<Evidence> HOME = said(
      "2022-11-03|Lena: I live in Graz, close to the old town.",
      "2023-04-18|Lena: We finally moved! I live in Leipzig now.",
      "2023-04-18|Jonas: How is the new flat?");

  @Test
  void aQuestionAboutThePresentGetsTheLatestValue() {
    assertThat(ask("How much is Priya's rent now?", RENT)).isEqualTo("1450 euros a month");
    assertThat(ask("Where does Tomas work now?", JOB)).isEqualTo("Nordlicht");
    assertThat(ask("Where does Lena currently live?", HOME)).isEqualTo("Leipzig");
  }

  @Test
  void aQuestionAboutTheFormerValueGetsTheLatestAndTheOneBefore() {
    assertThat(ask("How much was Priya's rent before?", RENT)).isEqualTo("1450 euros a month (before: 1200 euros a month)");
    assertThat(ask("Where did Tomas work previously?", JOB)).isEqualTo("Nordlicht (before: Brightwave)");
    assertThat(ask("Where did Lena live before?", HOME)).isEqualTo("Leipzig (before: Graz)");
  }

  @Test
  void aQuestionAboutTheTimeOfAnEventGetsTheValueSaidByThen() {
    // the later rent ranks first: the answer is what held when she moved, not the latest value
    List<Evidence> moved = said(
        "2024-06-02|Priya: The landlord raised it, so my rent is 1450 euros a month since May.",
        "2024-01-10|Priya: I just moved to Utrecht last week, boxes everywhere.",
        "2024-01-10|Priya: My rent is 1200 euros a month.",
        "2023-08-20|Priya: In Arnhem my rent was 800 euros a month.");
    assertThat(ask("What was Priya's rent when she moved to Utrecht?", moved)).startsWith("1200 euros");
    // without a "when" clause the past question is answered as before
    assertThat(ask("What was Priya's rent?", moved)).doesNotStartWith("1200 euros");
  }

  @Test
  void howSomethingChangedIsAnsweredWithTheValueThatDiffers() {
    // the wording asks for no kind of span; the amount is what differs between the two sentences
    assertThat(ask("How has Priya's rent changed?", RENT)).isEqualTo("1450 euros a month (before: 1200 euros a month)");
  }

  @Test
  void aFactThatNeverChangedIsAnsweredAlone() {
    List<Evidence> once = said("2023-02-14|Tomas: I work at Brightwave as a junior tester.", "2023-02-14|Ines: Nice!");
    assertThat(ask("Where did Tomas work before?", once)).isEqualTo("Brightwave");
  }

  @Test
  void theFacadeAnswersWithTheLatestAndTheFormerValue() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      lychee.append("tomas", "s1", LocalDateTime.parse("2023-02-14T18:00"), List.of(
          Turn.user("Tomas", "I work at Brightwave as a junior tester."),
          Turn.user("Ines", "Do you like it?"),
          Turn.user("Tomas", "Mostly. My rent is 900 euros a month, which helps.")));
      lychee.flush("tomas", "s1");
      lychee.append("tomas", "s2", LocalDateTime.parse("2023-09-30T18:00"), List.of(
          Turn.user("Tomas", "I quit in August, and I work at Nordlicht now as a team lead."),
          Turn.user("Ines", "Congratulations! Did you move as well?"),
          Turn.user("Tomas", "Yes, my rent is 1300 euros a month in the new place.")));
      lychee.flush("tomas", "s2");
      LocalDateTime asked = LocalDateTime.parse("2023-10-05T09:00");
      Answer now = lychee.answer(new Question("tomas", "Where does Tomas work now?", 10, asked));
      assertThat(now.text()).contains("Nordlicht").doesNotContain("Brightwave");
      Answer before = lychee.answer(new Question("tomas", "Where did Tomas work before?", 10, asked));
      assertThat(before.text()).isEqualTo("Nordlicht (before: Brightwave)");
      Answer rent = lychee.answer(new Question("tomas", "How much was Tomas's rent previously?", 10, asked));
      assertThat(rent.text()).isEqualTo("1300 euros a month (before: 900 euros a month)");
    }
  }
}
