package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.rerank.LatestFirstConfig;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import java.time.LocalDateTime;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Changed facts (issue 20.3) through the facade with the offline defaults (BGE-small ONNX, heuristic
 * encoder, rule-based planner, in-memory store) and the latest-first rule switched on: a hand-written chat of three sessions in which
 * Priya's employer, her rent and the date of a planned visit change. A question about the present
 * must rank the latest value's evidence above the old one; a question about the past must still
 * find the old one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangedFactsRecallTest {
  private static final String NS = "priya";

  private Lychee memory;

  @BeforeAll
  void ingest() {
    // the offline defaults: the latest-first rule is on (docs/defaults.md §4.16)
    memory = Lychee.create(new OnnxEmbeddingModule());
    ingest(memory);
  }

  @AfterAll
  void close() {
    memory.close();
  }

  /** The three sessions, January, March and May 2024. */
  static void ingest(Lychee lychee) {
    lychee.append(NS, "s1", LocalDateTime.parse("2024-01-14T18:30"), List.of(
        Turn.user("Tom", "Hey Priya, long time! How is everything going?"),
        Turn.user("Priya", "Pretty good! I still work at Northwind Logistics, planning delivery routes for the warehouses."),
        Turn.user("Tom", "Nice. Are you still in that flat near the river?"),
        Turn.user("Priya", "Yes, the rent is $1,450 a month, which is fine for two bedrooms."),
        Turn.user("Tom", "Not bad at all for the city."),
        Turn.user("Priya", "I booked a trip to Lisbon to visit my sister Anika on April 12."),
        Turn.user("Tom", "Lisbon in spring sounds lovely."),
        Turn.user("Priya", "I also started learning the cello, my teacher is very patient."),
        Turn.user("Tom", "Send me a recording some day!"),
        Turn.user("Priya", "Only once I can play more than scales.")));
    lychee.flush(NS, "s1");
    lychee.append(NS, "s2", LocalDateTime.parse("2024-03-09T20:05"), List.of(
        Turn.user("Tom", "How was your week, Priya?"),
        Turn.user("Priya", "Busy. My landlord raised the rent, now I pay $1,620 a month for the same flat."),
        Turn.user("Tom", "Ouch, that is a big jump."),
        Turn.user("Priya", "And I moved the Lisbon visit to my sister Anika to May 3, work got in the way."),
        Turn.user("Tom", "At least the weather will be warmer then."),
        Turn.user("Priya", "My cello teacher says I can try a real piece next month."),
        Turn.user("Tom", "Which one?"),
        Turn.user("Priya", "A simple arrangement of a Bach minuet."),
        Turn.user("Tom", "Classic choice."),
        Turn.user("Priya", "We will see how my neighbours like it.")));
    lychee.flush(NS, "s2");
    lychee.append(NS, "s3", LocalDateTime.parse("2024-05-20T19:45"), List.of(
        Turn.user("Tom", "Priya! What is new with you?"),
        Turn.user("Priya", "Big news: I left Northwind, and I am a data analyst at Harbor Health since May."),
        Turn.user("Tom", "Congratulations, that is a great move."),
        Turn.user("Priya", "Thanks! The Lisbon trip to see Anika is off for May, I am going on June 21 instead."),
        Turn.user("Tom", "Third time lucky."),
        Turn.user("Priya", "The cello is going well, I played the minuet for my sister on a video call."),
        Turn.user("Tom", "Did she like it?"),
        Turn.user("Priya", "She laughed, but kindly."),
        Turn.user("Tom", "That counts as a success."),
        Turn.user("Priya", "I think so too."),
        Turn.user("Tom", "Talk soon!")));
    lychee.flush(NS, "s3");
  }

  /** The rank of the first evidence item whose text passes {@code test}, or MAX_VALUE. */
  static int rank(Recall recall, Predicate<String> test) {
    return recall.evidence().stream().filter(e -> test.test(e.text())).mapToInt(Evidence::rank).min()
        .orElse(Integer.MAX_VALUE);
  }

  static Predicate<String> has(String word) {
    return t -> t.contains(word);
  }

  static Predicate<String> hasNot(String word) {
    return t -> !t.contains(word);
  }

  @Test
  void aQuestionAboutTheCurrentEmployerRanksTheNewOneFirst() {
    Recall r = memory.recall(NS, "Where does Priya work now?");
    int latest = rank(r, has("Harbor Health"));
    int old = rank(r, has("Northwind Logistics").and(hasNot("Harbor Health")));
    assertThat(latest).as("the new employer is recalled").isLessThan(Integer.MAX_VALUE);
    assertThat(latest).as("and ranks above the old one").isLessThan(old);
  }

  @Test
  void aQuestionAboutTheCurrentRentRanksTheRaisedRentFirst() {
    Recall r = memory.recall(NS, "What is Priya's rent now?");
    int latest = rank(r, has("$1,620"));
    int old = rank(r, has("$1,450").and(hasNot("$1,620")));
    assertThat(latest).isLessThan(Integer.MAX_VALUE);
    assertThat(latest).isLessThan(old);
  }

  @Test
  void aPresentTenseQuestionAboutAPlanRanksTheLatestDateFirst() {
    Recall r = memory.recall(NS, "When is Priya visiting her sister in Lisbon?");
    int latest = rank(r, has("June 21"));
    assertThat(latest).isLessThan(Integer.MAX_VALUE);
    assertThat(latest).isLessThan(rank(r, has("April 12").and(hasNot("June 21"))));
    assertThat(latest).isLessThan(rank(r, has("May 3").and(hasNot("June 21"))));
  }

  @Test
  void questionsAboutThePastStillFindTheOldValues() {
    assertThat(rank(memory.recall(NS, "What was Priya's rent before the landlord raised it?"), has("$1,450")))
        .isLessThanOrEqualTo(10);
    assertThat(rank(memory.recall(NS, "Where did Priya work in January 2024?"), has("Northwind Logistics")))
        .isLessThanOrEqualTo(10);
    assertThat(rank(memory.recall(NS, "When did Priya first plan to visit her sister?"), has("April 12")))
        .isLessThanOrEqualTo(10);
  }

  @Test
  void theOldValuesStayInTheEvidenceOfAPresentQuestion() {
    // append-only: a question about the present ranks the old value lower, it does not drop it
    assertThat(rank(memory.recall(NS, "What is Priya's rent now?"), has("$1,450"))).isLessThanOrEqualTo(10);
  }

  @Test
  void withTheRuleOffTheOldEmployerRanksFirst() {
    // what the rule changes: the same chat read with the rule switched off ranks the old employer first
    try (Lychee off = Lychee.create(LycheeConfig.builder()
        .retrieval(RetrievalConfig.builder().latestFirst(LatestFirstConfig.off()).build()).build(),
        new OnnxEmbeddingModule())) {
      ingest(off);
      Recall r = off.recall(NS, "Where does Priya work now?");
      assertThat(rank(r, has("Northwind Logistics").and(hasNot("Harbor Health"))))
          .isLessThan(rank(r, has("Harbor Health")));
    }
  }
}
