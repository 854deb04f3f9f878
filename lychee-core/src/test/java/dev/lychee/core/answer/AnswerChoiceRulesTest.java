package dev.lychee.core.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TemporalScope;
import dev.lychee.core.time.DateMention;
import dev.lychee.core.time.TemporalNormalizer;
import dev.lychee.core.time.Tense;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules by which the offline answerer chooses a sentence among the evidence (issue 20.3 and
 * 20.5): a reply that only thanks passes its question's support on, "where does X work?" asks for an
 * employer, a line after the topic is scored with the words of the lines before it, "now" widens the choice to a later value, a question dated in the past takes what held
 * then, "before she moved" takes the value told before the event, and of several dates in a
 * sentence the one nearest the question's words answers "when". The conversations are written for
 * this test.
 */
class AnswerChoiceRulesTest {
  private final ExtractiveAnswerGenerator answerer = new ExtractiveAnswerGenerator();

  /**
   * Evidence items "date|text", each an item of its own in the order given; a text may hold several
   * lines "Name: words" (a window).
   */
  private static List<Evidence> items(String... items) {
    List<Evidence> out = new ArrayList<>();
    for (int i = 0; i < items.length; i++) {
      String[] dateAndText = items[i].split("\\|", 2);
      Candidate c = new Candidate("c" + i, CandidateKind.WINDOW, "ns", dateAndText[1].replace(" / ", "\n"), "s" + i,
          List.of(), LocalDateTime.parse(dateAndText[0] + "T10:00"), TemporalScope.NONE, null, null, List.of(), List.of(),
          1.0 - i * 0.05, 0.5, null);
      out.add(new Evidence(i + 1, c.score(), c));
    }
    return out;
  }

  private String ask(String question, List<Evidence> evidence) {
    return answerer.answer(Question.of("ns", question), RecallPlan.singleRoute(question), evidence).text();
  }

  @Test
  void aReplyThatOnlyThanksPassesTheQuestionsSupportToTheNextSentence() {
    List<Evidence> ev = items(
        "2023-04-02|Ola: What got you into rowing, Ben? / Ben: Thanks, Ola! / Ben: My uncle took me out on the river every summer.",
        "2023-04-02|Ben: My hands still hurt from the boat.");
    assertThat(ask("What got Ben into rowing?", ev)).contains("uncle");
  }

  @Test
  void aLineAfterTheTopicIsScoredWithTheWordsOfTheLinesBeforeIt() {
    // the first line names the topic and holds most of the question's words; the follow-up asks with
    // the question's verb; the answer holds neither, yet the three lines together hold the question
    List<Evidence> ev = items(
        "2023-05-14|Ines: Yesterday I took my nephew to a pottery class downtown. / Joe: Fun, what did you two make? "
            + "/ Ines: We shaped a pair of clay mugs for his grandma.",
        "2023-05-20|Ines: The pottery class downtown is always full on Sundays.");
    assertThat(ask("What did Ines and her nephew make at the pottery class?", ev)).contains("mugs");
    // a question for a date keeps its answer with the topic
    assertThat(ask("When did Ines take her nephew to the pottery class?", ev)).isEqualTo("13 May 2023");
  }

  @Test
  void theContextOfALineEndsAtTheSameSpeakersEarlierRemark() {
    // the reply's first sentence answers the follow-up; the second, by the same speaker, is about
    // something else and must not take the follow-up's words as its own context
    List<Evidence> ev = items(
        "2023-03-06|Sam: I just started at the bakery on the corner. / Lea: Nice! How is the commute? "
            + "/ Sam: Twenty minutes by tram, which I like. My room is tiny but the rent is 600 pounds a month.");
    assertThat(ask("How does Sam commute?", ev)).contains("tram").doesNotContain("rent");
  }

  @Test
  void anIrregularVerbFormMeetsItsBaseForm() {
    assertThat(SentenceSupport.roots("We made our own pots")).containsAll(SentenceSupport.roots("make"));
    assertThat(SentenceSupport.roots("I saw two seals")).containsAll(SentenceSupport.roots("see"));
    List<Evidence> ev = items(
        "2023-05-14|Ola: The harbour was windy, cold and grey all morning.",
        "2023-05-14|Ola: I saw two seals at the harbour.");
    assertThat(ask("What did Ola see at the harbour?", ev)).contains("seals");
  }

  @Test
  void aQuestionForATitleIsAnsweredWithTheQuotedTitle() {
    List<Evidence> ev = items(
        "2023-06-02|Rafa: I finished the book my sister gave me and it made me want to travel.",
        "2023-06-02|Rafa: I finished \u201cThe Long Road North\u201d on the train, what a book.");
    assertThat(ask("What book did Rafa finish?", ev)).isEqualTo("The Long Road North");
    assertThat(AnswerForm.asksForATitle("Which song did Rafa sing?")).isTrue();
    assertThat(AnswerForm.asksForATitle("What books has Rafa read?")).isFalse();
  }

  @Test
  void aQuestionForAKindOfThingIsAnsweredWithTheWordsBeforeIt() {
    List<Evidence> ev = items("2023-06-02|Lena: For the new studio I want sprung oak flooring, it is kind to the knees.");
    assertThat(ask("What kind of flooring does Lena want for her studio?", ev)).isEqualTo("sprung oak flooring");
    assertThat(AnswerForm.kindOf("What type of show did Lena host?")).isEqualTo("show");
    assertThat(AnswerForm.kindOf("What show did Lena host?")).isNull();
  }

  @Test
  void whereSomeoneWorksIsAnsweredWithTheEmployerNotACity() {
    List<Evidence> ev = items(
        "2023-03-10|Marta: My brother works as a chef in Porto.",
        "2023-08-01|Marta: Big news, I left Kestrel Foods and joined Ferro Labs as an analyst.",
        "2023-03-10|Marta: I just started at Kestrel Foods, the office is in Leeds.");
    assertThat(ask("Where does Marta work now?", ev)).isEqualTo("Ferro Labs");
  }

  @Test
  void aQuestionDatedInThePastGetsWhatHeldThen() {
    List<Evidence> ev = items(
        "2023-08-01|Marta: Big news, I left Kestrel Foods and joined Ferro Labs as an analyst.",
        "2023-03-10|Marta: I just started at Kestrel Foods, the office is in Leeds.");
    assertThat(ask("Where did Marta work in March 2023?", ev)).isEqualTo("Kestrel Foods");
    assertThat(ask("Where does Marta work now?", ev)).isEqualTo("Ferro Labs");
  }

  @Test
  void nowLetsALaterValueCompeteWithABetterWordedOlderOne() {
    // the old answer is a reply to a question with the asked verb, so it holds more of the question's
    // words than the later one; "now" asks for the later value
    List<Evidence> ev = items(
        "2022-05-04|Ada: Where does Jonah live these days? / Lena: In Porto, he teaches there.",
        "2023-02-20|Ada: Is Jonah still in Porto? / Lena: No, he moved to Lyon in January for a new job.");
    assertThat(ask("Where does Jonah live now?", ev)).isEqualTo("Lyon");
  }

  @Test
  void aPlanThatMovedIsAnsweredWithTheDateNearestTheAskedEvent() {
    List<Evidence> ev = items(
        "2024-05-10|Rui: My brother had to cancel in April, so he is now visiting on August 9th instead.",
        "2024-02-01|Rui: My brother is visiting on April 4th, we will go surfing.");
    assertThat(ask("When is Rui's brother visiting?", ev)).isEqualTo("9 August 2024");
  }

  @Test
  void ofSeveralDatesTheOneNearestTheQuestionsWordsComesFirst() {
    String body = "She had to cancel in March, so she is now visiting on July 20th instead.";
    List<DateMention> found = new TemporalNormalizer().find(body, LocalDate.parse("2024-06-01"), Tense.of(body))
        .stream().filter(DateMention::dated).toList();
    assertThat(AnswerSpans.nearestFirst("When is Anna visiting Rui?", body, found).get(0).text()).contains("July");
    assertThat(AnswerSpans.nearestFirst("When did Anna cancel?", body, found).get(0).text()).contains("March");
    // a date and its resolved form written after it stay one mention, in their order
    String record = "Last week (2023-02-27 to 2023-03-05), Rui's grandma moved in.";
    List<DateMention> both = new TemporalNormalizer().find(record, LocalDate.parse("2023-03-06"), Tense.of(record))
        .stream().filter(DateMention::dated).toList();
    assertThat(AnswerSpans.nearestFirst("When did Rui's grandma move in?", record, both).get(0).text())
        .isEqualToIgnoringCase("last week");
  }

  @Test
  void whatHeldBeforeAnEventIsTheValueToldLastBeforeIt() {
    List<Evidence> ev = items(
        "2024-11-02|Ben: I moved to a bigger place in October, the rent is 1,300 euros now.",
        "2024-05-14|Ben: The landlord raised my rent, it is 1,050 euros a month.",
        "2024-01-08|Ben: My rent is 900 euros a month, fine for a studio.");
    assertThat(ask("What was Ben's rent before he moved?", ev)).contains("1,050").doesNotContain("1,300");
  }

  @Test
  void anAnswerAboutWhatHeldBeforeDropsTheNowItWasToldWith() {
    List<Evidence> ev = items(
        "2024-11-02|Ben: I moved to a bigger place in October, the rent is 1,300 euros now.",
        "2024-05-14|Ben: The landlord raised my rent, I pay 1,050 euros a month now.",
        "2024-01-08|Ben: My rent is 900 euros a month, fine for a studio.");
    String before = ask("What was Ben's rent before he moved?", ev);
    assertThat(before).contains("1,050").doesNotContainIgnoringCase("now");
    // a question about the present keeps its value as told
    assertThat(ask("How much is Ben's rent now?", ev)).contains("1,300");
    assertThat(ExtractiveAnswerGenerator.withoutPresentAdverb("1,050 euros a month now")).isEqualTo("1,050 euros a month");
    assertThat(ExtractiveAnswerGenerator.withoutPresentAdverb("currently, Blue Harbor")).isEqualTo("Blue Harbor");
    assertThat(ExtractiveAnswerGenerator.withoutPresentAdverb("snowboard")).isEqualTo("snowboard");
    assertThat(ExtractiveAnswerGenerator.withoutPresentAdverb("now")).isEqualTo("now");
  }

  @Test
  void theQuestionsWordingTellsTheseRulesApart() {
    assertThat(AnswerForm.asksForAnEmployer("Where does Marta work now?")).isTrue();
    assertThat(AnswerForm.asksForAnEmployer("Where did Marta go hiking?")).isFalse();
    assertThat(AnswerForm.asksForAHome("Where does Jonah live now?")).isTrue();
    assertThat(AnswerForm.eventBefore("What was Ben's rent before he moved?")).isEqualTo("he moved");
    assertThat(AnswerForm.eventBefore("Which city was Ben in before traveling to Oslo?")).isEqualTo("traveling to oslo");
    // "before the concert" names an event by a noun, and "before?" asks for a former value (§5 changed facts)
    assertThat(AnswerForm.eventBefore("What did Ben eat before the concert?")).isNull();
    assertThat(AnswerForm.eventBefore("How much was Ben's rent before?")).isNull();
    assertThat(AnswerForm.saysNow("Where does Marta work now?")).isTrue();
    assertThat(AnswerForm.saysNow("Where does Marta work?")).isFalse();
    assertThat(AnswerForm.aboutThePresent("When is Rui's brother visiting?")).isTrue();
  }
}
