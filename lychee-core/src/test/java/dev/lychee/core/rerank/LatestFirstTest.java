package dev.lychee.core.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.Provenance;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallContext;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The latest-first rule on hand-built candidates (issue 20.3). */
class LatestFirstTest {
  private static final LatestFirst RULE = new LatestFirst(LatestFirstConfig.on());

  private static RecallContext ctx(String q, DateRange filter) {
    RecallRoute r = new RecallRoute("r1", q, List.of(q), List.of(), filter);
    RecallPlan plan = new RecallPlan(QuestionType.SINGLE, "", List.of(r), filter, TokenUsage.ZERO);
    return new RecallContext(new Question("ns", q, 5, null), plan, 5, List.of());
  }

  /** A raw turn said on {@code day} (session {@code s<month>}). */
  private static Candidate turn(LocalDate day, int index, String text, double score) {
    String s = "s" + day.getMonthValue();
    return new Candidate(TurnRef.of(s, index).id(), CandidateKind.RAW_TURN, "ns", text, s,
        List.of(TurnRef.of(s, index)), day.atTime(18, 0), null, null, null, List.of(), List.of(), score, score,
        Provenance.of("raw_turn", text, null, "r1"));
  }

  private static final LocalDate JAN = LocalDate.of(2024, 1, 14);
  private static final LocalDate MAR = LocalDate.of(2024, 3, 9);
  private static final LocalDate MAY = LocalDate.of(2024, 5, 20);

  @Test
  void presentWordsAndPresentTenseMakeAQuestionAboutThePresent() {
    assertThat(RULE.isPresent("Where does Priya work now?", false)).isTrue();
    assertThat(RULE.isPresent("Is Priya still at Northwind?", false)).isTrue();
    assertThat(RULE.isPresent("What's Priya's rent these days?", false)).isTrue();
    assertThat(RULE.isPresent("What is Priya's rent?", false)).isTrue();
    assertThat(RULE.isPresent("When is Priya visiting her sister?", false)).isTrue();
    assertThat(RULE.isPresent("Who's Priya's landlord?", false)).isTrue();
    assertThat(RULE.isPresent("Does Priya play the cello anymore?", false)).isTrue();
    // the first finite verb is past, or a past word, or a planned date: not about the present
    assertThat(RULE.isPresent("Where did Priya work in January?", false)).isFalse();
    assertThat(RULE.isPresent("What was Priya's rent?", false)).isFalse();
    assertThat(RULE.isPresent("What is the rent Priya paid before?", false)).isFalse();
    assertThat(RULE.isPresent("What is Priya's rent?", true)).isFalse();
    assertThat(RULE.isPresent("What has Priya painted?", false)).isFalse();
    // a present word wins over a past one: "what was it before, and what is it now"
    assertThat(RULE.isPresent("What was Priya's rent before, and what is it now?", false)).isTrue();
    // "Priya's" is a possessive, not "is"
    assertThat(RULE.isPresent("Priya's rent went up?", false)).isFalse();
  }

  @Test
  void withTheTenseReadingOffOnlyPresentWordsCount() {
    LatestFirst words = new LatestFirst(LatestFirstConfig.builder().enabled(true).presentTense(false).build());
    assertThat(words.isPresent("What is Priya's rent?", false)).isFalse();
    assertThat(words.isPresent("What is Priya's rent now?", false)).isTrue();
  }

  @Test
  void theLatestValueMovesInFrontOfTheOldOneAndTheOldOneStays() {
    Candidate old = turn(JAN, 3, "Priya: Yes, the rent is $1,450 a month.", .74);
    Candidate cello = turn(MAR, 5, "Priya: My cello teacher is patient.", .72);
    Candidate raised = turn(MAR, 1, "Priya: My landlord raised the rent, I pay $1,620 a month.", .70);
    Candidate tom = turn(MAY, 2, "Tom: Talk soon!", .69);
    List<Candidate> in = List.of(old, cello, raised, tom);

    List<Candidate> out = RULE.apply(in, ctx("What is Priya's rent now?", null));

    assertThat(out).extracting(Candidate::id).containsExactly(raised.id(), cello.id(), old.id(), tom.id());
    // scores stay where they were, so the list is still best first
    assertThat(out).extracting(Candidate::score).containsExactly(.74, .72, .70, .69);
  }

  @Test
  void aQuestionAboutThePastKeepsTheOrder() {
    Candidate old = turn(JAN, 3, "Priya: Yes, the rent is $1,450 a month.", .74);
    Candidate raised = turn(MAR, 1, "Priya: My landlord raised the rent, I pay $1,620 a month.", .70);
    List<Candidate> in = List.of(old, raised);
    assertThat(RULE.apply(in, ctx("What was Priya's rent before?", null))).isSameAs(in);
    assertThat(RULE.apply(in, ctx("What is Priya's rent in January 2024?",
        DateRange.monthOf(LocalDate.of(2024, 1, 1))))).isSameAs(in);
    assertThat(new LatestFirst(LatestFirstConfig.off()).apply(in, ctx("What is Priya's rent now?", null)))
        .isSameAs(in);
  }

  @Test
  void aSharedNameJoinsStatementsThatShareNoQuestionWord() {
    // the new employer is said without "work"; both name the old company
    Candidate old = turn(JAN, 1, "Priya: I still work at Northwind Logistics, planning routes.", .73);
    Candidate moved = turn(MAY, 1, "Priya: I left Northwind, I am a data analyst at Harbor Health.", .45);
    List<Candidate> out = RULE.apply(List.of(old, moved), ctx("Where does Priya work now?", null));
    assertThat(out).extracting(Candidate::id).containsExactly(moved.id(), old.id());
  }

  @Test
  void laterEvidenceAboutSomethingElseOrSomeoneElseOrFarBelowDoesNotMove() {
    Candidate old = turn(JAN, 1, "Priya: I booked a trip to Lisbon to visit my sister Anika on April 12.", .60);
    // shares only "sister" of "sister" and "lisbon": not the same attribute
    Candidate cello = turn(MAY, 6, "Priya: I played the minuet for my sister on a video call.", .58);
    // the same attribute, but said by someone else
    Candidate tom = turn(MAY, 7, "Tom: My sister lives in Lisbon too, near Anika.", .57);
    // the same attribute, but scored too far below the anchor
    Candidate far = turn(MAY, 3, "Priya: The Lisbon trip to see Anika is on June 21 now.", .20);
    List<Candidate> in = List.of(old, cello, tom, far);
    assertThat(RULE.apply(in, ctx("When is Priya visiting her sister in Lisbon?", null))).isSameAs(in);

    Candidate near = turn(MAY, 3, "Priya: The Lisbon trip to see Anika is on June 21 now.", .50);
    assertThat(RULE.apply(List.of(old, cello, tom, near), ctx("When is Priya visiting her sister in Lisbon?", null)))
        .extracting(Candidate::id).containsExactly(near.id(), cello.id(), tom.id(), old.id());
  }

  @Test
  void aWindowIsReadLineByLine() {
    Candidate old = turn(JAN, 3, "Priya: Yes, the rent is $1,450 a month.", .74);
    Candidate window = new Candidate("source_window:s3:0-2", CandidateKind.WINDOW, "ns",
        "Tom: How was your week?\nPriya: My landlord raised the rent to $1,620.\nTom: Ouch.", "s3",
        List.of(TurnRef.of("s3", 0), TurnRef.of("s3", 1), TurnRef.of("s3", 2)), MAR.atTime(20, 0), null, null,
        null, List.of(), List.of(), .66, .66, Provenance.of("source_window", null, null, "r1"));
    assertThat(RULE.apply(List.of(old, window), ctx("What is Priya's rent now?", null)))
        .extracting(Candidate::id).containsExactly(window.id(), old.id());
  }

  @Test
  void inOneSessionTheLaterTurnIsTheLaterStatement() {
    Candidate first = turn(MAR, 1, "Priya: the rent is $1,450.", .70);
    Candidate second = turn(MAR, 4, "Priya: sorry, I misremembered, the rent is $1,500.", .65);
    assertThat(RULE.apply(List.of(first, second), ctx("What is Priya's rent now?", null)))
        .extracting(Candidate::id).containsExactly(second.id(), first.id());
    assertThat(LatestFirst.saidLater(second, first)).isTrue();
    assertThat(LatestFirst.saidLater(first, second)).isFalse();
  }

  @Test
  void tenseWordsAreNotTopicTerms() {
    assertThat(RULE.tenseTerms("Where does Priya work now?")).containsExactly("now");
    assertThat(RULE.tenseTerms("What does Priya do these days?")).containsExactly("day");
    assertThat(RULE.tenseTerms("Where did Priya work?")).isEmpty();
    assertThat(new LatestFirst(LatestFirstConfig.off()).tenseTerms("Where does Priya work now?")).isEmpty();
  }

  @Test
  void theRerankerDoesNotMatchNowAsATopicWord() {
    // "now" would lift an unrelated turn holding it; only "work" is the topic
    Candidate rent = new Candidate("episode:s2:1", CandidateKind.RAW_TURN, "ns",
        "Priya: now I pay more rent", "s2", List.of(TurnRef.of("s2", 1)), MAR.atTime(9, 0), null, null, null,
        List.of(), List.of(), .55, .55, Provenance.EMPTY);
    Candidate job = new Candidate("episode:s1:1", CandidateKind.RAW_TURN, "ns",
        "Priya: I work at Northwind", "s1", List.of(TurnRef.of("s1", 1)), JAN.atTime(9, 0), null, null, null,
        List.of(), List.of(), .55, .55, Provenance.EMPTY);
    List<Candidate> out = new FeatureReranker(RerankWeights.defaults(), LatestFirstConfig.on())
        .rerank(List.of(rent, job), ctx("Where does Priya work now?", null));
    assertThat(out.get(0).id()).isEqualTo(job.id());
  }

  @Test
  void properNamesSkipLineAndSentenceStartsCalendarWordsAndTheSubject() {
    assertThat(LatestFirst.properNames("Priya: Thanks! The Lisbon trip to see Anika is on June 21.", Set.of("priya")))
        .containsExactly("lisbon", "anika");
    assertThat(LatestFirst.properNames("Tom: I met Priya at Harbor Health.", Set.of("priya")))
        .containsExactly("harbor", "health");
  }

  @Test
  void theRuleIsOnByDefaultAndOffLeavesTheRankingAlone() {
    assertThat(LatestFirstConfig.defaults().enabled()).isTrue();
    Candidate old = turn(JAN, 3, "Priya: Yes, the rent is $1,450 a month.", .74);
    Candidate raised = turn(MAR, 1, "Priya: My landlord raised the rent, I pay $1,620 a month.", .70);
    List<Candidate> in = List.of(old, raised);
    assertThat(new LatestFirst(LatestFirstConfig.off()).apply(in, ctx("What is Priya's rent now?", null)))
        .isSameAs(in);
  }

  @Test
  void settingsAreChecked() {
    assertThatThrownBy(() -> LatestFirstConfig.builder().head(1).build()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LatestFirstConfig.builder().scoreGap(1.5).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LatestFirstConfig.builder().presentWords(Set.of(" ")).build())
        .isInstanceOf(IllegalArgumentException.class);
    LatestFirstConfig c = LatestFirstConfig.builder().presentWords(Set.of("Right  Now")).head(5).build();
    assertThat(c.presentWords()).containsExactly("right now");
    assertThat(c.toBuilder().build().head()).isEqualTo(5);
  }
}
