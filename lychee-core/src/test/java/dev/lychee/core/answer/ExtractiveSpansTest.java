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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The offline answerer returns the span the question asks for, abstains without support, and answers changed facts with the latest value. */
class ExtractiveSpansTest {
  private final ExtractiveAnswerGenerator answerer = new ExtractiveAnswerGenerator();

  /** Raw turns "Name: text" of one session said on {@code date}, ranked in order (shared by the answer tests). */
  static List<Evidence> turns(String date, String... lines) {
    List<Evidence> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      RawTurn t = new RawTurn("ns", new TurnRef("s1", i), Role.USER, lines[i].substring(0, colon),
          lines[i].substring(colon + 2), LocalDateTime.parse(date + "T10:00"));
      out.add(new Evidence(i + 1, 1.0 - i * 0.1, Candidate.ofTurn(t, 1.0 - i * 0.1, 0.5, Provenance.EMPTY)));
    }
    return out;
  }

  private String ask(String question, List<Evidence> evidence) {
    return answerWith(answerer, question, evidence);
  }

  /** The answer text of {@code answerer} to {@code question} on a single-route plan (shared by the answer tests). */
  static String answerWith(ExtractiveAnswerGenerator answerer, String question, List<Evidence> evidence) {
    return answerer.answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence).text();
  }

  /**
   * One row per question type: the session date, a short exchange (turns split on " / "), the
   * question and the expected answer. The exchanges are written for this test.
   */
  @ParameterizedTest(name = "[{index}] {2} -> {3}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      2024-03-11 | Noor: We flew back from Lisbon last Friday. / Ivo: Welcome home! | When did Noor fly back from Lisbon? | the Friday before 11 March 2024
      2024-03-11 | Ivo: I repainted the kitchen last week. / Noor: What colour? | When did Ivo repaint the kitchen? | the week before 11 March 2024
      2024-03-11 | Noor: The ferry to Hvar left two days ago. / Ivo: Lucky you. | When did the ferry to Hvar leave? | 9 March 2024
      2024-03-11 | Noor: The move is planned for next month. / Ivo: Exciting. | When is Noor's move? | April 2024
      2024-03-11 | Ivo: I adopted a cat named Pixel! / Noor: So cute. | When did Ivo adopt the cat? | 11 March 2024
      2024-03-11 | Noor: My neighbour Teodora lent me her ladder. / Ivo: Kind of her. | Who lent Noor a ladder? | Teodora
      2024-03-11 | Ivo: Who taught you to knit? / Noor: Grandpa Elias did, years ago. | Who taught Noor to knit? | Grandpa Elias
      2024-03-11 | Noor: I have two brothers and a sister. / Ivo: Big family! | How many brothers does Noor have? | two brothers
      2024-03-11 | Ivo: The bike cost me 340 euros in the end. / Noor: Not bad. | How much did Ivo's bike cost? | 340 euros
      2024-03-11 | Noor: We spent the weekend hiking near Innsbruck. / Ivo: Lovely. | Where did Noor go hiking? | Innsbruck
      2024-03-11 | Ivo: My sister works at a bakery in Ghent. / Noor: Nice. | Where does Ivo's sister work? | Ghent
      2024-03-11 | Noor: I finally bought a cello for the orchestra. / Ivo: Great! | What instrument did Noor buy? | cello for the orchestra
      2024-03-11 | Ivo: What did you cook for the party? / Noor: A huge pot of lentil soup. | What did Noor cook for the party? | huge pot of lentil soup
      2024-03-11 | Ivo: Noor plays the viola, and Noor wants to find a quartet to join. / Noor: True. | What instrument does Noor play? | viola
      2024-03-11 | Ivo: Noor wants to find a choir to join. / Ivo: Noor joined the Harbour Youth Choir in the end. | Which choir did Noor join? | Harbour Youth Choir
      2024-03-11 | Noor: I go swimming every morning before work. / Ivo: Brave. | Does Noor go swimming? | Yes
      2024-03-11 | Noor: I never drink coffee, only tea. / Ivo: Same. | Does Noor drink coffee? | No
      2024-03-11 | Noor: I prefer quiet mountain cabins to busy beach resorts. / Ivo: Me too. | Would Noor rather book a mountain cabin or a beach resort? | mountain cabin
      2024-03-11 | Noor: I adore long hikes and sleeping in a tent. / Ivo: Fun. | Would Noor enjoy a camping weekend? | Likely yes
      """)
  void eachQuestionTypeGetsItsKindOfSpan(String date, String exchange, String question, String expected) {
    assertThat(ask(question, turns(date, exchange.split(" / ")))).isEqualToIgnoringCase(expected);
  }

  @Test
  void whenQuestionsGetTheResolvedDateAsTheBenchmarkWritesIt() {
    List<Evidence> ev = turns("2023-05-08", "Nadia: I went to a community choir rehearsal yesterday and it was so powerful.",
        "Rafael: That sounds great.");
    assertThat(ask("When did Nadia go to the community choir rehearsal?", ev)).isEqualTo("7 May 2023");
    List<Evidence> month = turns("2024-09-02", "Priya: My sister is visiting on October 12th, I can't wait.");
    assertThat(ask("When is Priya's sister visiting?", month)).isEqualTo("12 October 2024");
    // an event told without a date happened on the day it was told
    assertThat(ask("When did Nadia adopt the dog?", turns("2023-06-01", "Nadia: I adopted a dog named Oscar!")))
        .isEqualTo("1 June 2023");
  }

  @Test
  void whoWhereAndHowManyGetANameAPlaceAndANumber() {
    assertThat(ask("Who gave Pavel the guitar?", turns("2023-05-08", "Pavel: My uncle Marcus gave me this guitar.")))
        .isEqualTo("Marcus");
    assertThat(ask("Where did Hana move?", turns("2023-05-08", "Hana: We finally moved to Portland last month.")))
        .isEqualTo("Portland");
    assertThat(ask("How many kids does Rafael have?", turns("2023-05-08", "Rafael: I have three kids and a dog.")))
        .startsWith("three kids");
  }

  @Test
  void withoutSupportItSaysMemoryHoldsNoAnswer() {
    List<Evidence> ev = turns("2023-05-08", "Nadia: I went to a choir rehearsal yesterday.");
    assertThat(ask("???", ev)).isEqualTo(LlmAnswerGenerator.NOT_AVAILABLE);
    assertThat(ask("What is Zed's favourite volcano?", ev)).isEqualTo(LlmAnswerGenerator.NOT_AVAILABLE);
  }

  @Test
  void aChangedFactIsAnsweredWithItsLatestValue() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      lychee.append("priya", "s1", LocalDateTime.parse("2024-01-10T09:00"), List.of(
          Turn.user("Priya", "I work at Acme as a designer."),
          Turn.user("Sam", "Nice, how is the flat?"),
          Turn.user("Priya", "My rent is 1200 euros a month.")));
      lychee.flush("priya", "s1");
      lychee.append("priya", "s2", LocalDateTime.parse("2024-06-02T09:00"), List.of(
          Turn.user("Priya", "Big news: I work at Globex now, I left the old job."),
          Turn.user("Sam", "Congratulations! Did you move too?"),
          Turn.user("Priya", "No, but my rent is 1450 euros a month since May.")));
      lychee.flush("priya", "s2");
      Answer work = lychee.answer(new Question("priya", "Where does Priya work now?", 10, LocalDateTime.parse("2024-07-01T09:00")));
      assertThat(work.text()).contains("Globex").doesNotContain("Acme");
      Answer rent = lychee.answer(new Question("priya", "How much is Priya's rent now?", 10, LocalDateTime.parse("2024-07-01T09:00")));
      assertThat(rent.text()).contains("1450");
    }
  }

  @Test
  void aListQuestionGathersPhrasesFromSeveralSentences() {
    List<Evidence> ev = turns("2024-02-05", "Ines: On Sundays I go bouldering with my cousin.",
        "Ines: In winter I go skiing with my cousin in the Alps.", "Ines: In summer I go sailing with my cousin on the lake.");
    String answer = ask("What activities does Ines do with her cousin?", ev);
    assertThat(answer).contains("bouldering").contains("skiing").contains("sailing");
  }

  @Test
  void aPhraseIsWhatFollowsTheQuestionsWordsAndCarriesNoEncoderDates() {
    // the run after "gives" is the answer, not the as long run before the first echoed word
    assertThat(AnswerSpans.phrase("What does the family give Milo?",
        "Being brave is hard, but my family gives me courage.")).isEqualTo("courage");
    assertThat(AnswerSpans.phrase("Why did Pavel go to Rome?",
        "Pavel took a short trip last week (2023-06-12 to 2023-06-18) to Rome to clear his head."))
        .doesNotContain("2023");
  }

  @Test
  void weekendsAndSeasonsAreWrittenInWords() {
    assertThat(AnswerSpans.write(new dev.lychee.api.DateRange(java.time.LocalDate.parse("2022-06-04"),
        java.time.LocalDate.parse("2022-06-05")))).isEqualTo("the weekend of 4 June 2022");
    assertThat(AnswerSpans.write(new dev.lychee.api.DateRange(java.time.LocalDate.parse("2022-06-01"),
        java.time.LocalDate.parse("2022-08-31")))).isEqualTo("summer 2022");
    assertThat(AnswerSpans.write(new dev.lychee.api.DateRange(java.time.LocalDate.parse("2022-06-01"),
        java.time.LocalDate.parse("2022-06-30")))).isEqualTo("June 2022");
  }

  @Test
  void theSpeakerTheQuestionNamesIsPreferredOverTheOneWhoRepliesAboutIt() {
    List<Evidence> ev = turns("2024-02-05", "Ola: I finally planted tulips along the fence.",
        "Bram: Planted tulips along the fence? Bram planted roses there.");
    assertThat(ask("What did Ola plant along the fence?", ev)).contains("tulips");
  }
}
