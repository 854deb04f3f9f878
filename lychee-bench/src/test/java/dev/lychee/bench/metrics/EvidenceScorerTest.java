package dev.lychee.bench.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.bench.systems.EvidenceItem;
import dev.lychee.core.llm.O200kTokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvidenceScorerTest {
  /** One token per space-separated word: easy to count by hand. */
  private static final TokenCounter WORDS = t -> t == null || t.isBlank() ? 0 : t.trim().split("\\s+").length;

  private static TurnRef t(int i) {
    return TurnRef.of("D1", i);
  }

  private static EvidenceItem item(String text, int overhead, TurnRef... turns) {
    return new EvidenceItem(List.of(turns), text, overhead);
  }

  @Test
  void recallAndHitAtKCountCoveredGoldTurns() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(1, 2, 3), List.of(), WORDS);
    List<EvidenceItem> items = List.of(
        item("a b", 0, t(9)),
        item("c", 0, t(1), t(8)),   // a record citing two turns
        item("d e f", 0, t(2)));
    QuestionScore s = scorer.score(1, List.of(t(1), t(2), t(3), t(4)), items);
    assertThat(s.recall()).containsEntry(1, 0.0).containsEntry(2, 0.25).containsEntry(3, 0.5);
    assertThat(s.hit()).containsEntry(1, 0.0).containsEntry(2, 1.0).containsEntry(3, 1.0);
    assertThat(s.tokens()).containsEntry(1, 2.0).containsEntry(2, 3.0).containsEntry(3, 6.0);
  }

  @Test
  void kBeyondTheListUsesWhatThereIs() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(20), List.of(), WORDS);
    QuestionScore s = scorer.score(4, List.of(t(1)), List.of(item("x", 12, t(1))));
    assertThat(s.recall()).containsEntry(20, 1.0);
    assertThat(s.tokens()).containsEntry(20, 13.0); // 1 word + the 12-token baseline allowance
    assertThat(scorer.score(4, List.of(t(1)), List.of()).recall()).containsEntry(20, 0.0);
  }

  @Test
  void tokenBudgetKeepsTheLongestFittingPrefix() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(5), List.of(5, 10, 11, 100), WORDS);
    List<EvidenceItem> items = List.of(
        item("one two three", 2, t(1)),          // 5 tokens, running 5
        item("four five six", 2, t(2)),          // 5 tokens, running 10
        item("seven", 0, t(3)),                  // 1 token, running 11
        item("w w w w w w w w w w w w", 0, t(4)), // 12 tokens, running 23
        item("z", 0, t(5)));                     // after an item that does not fit: not kept
    QuestionScore s = scorer.score(2, List.of(t(2), t(3), t(5)), items);
    assertThat(s.recallTokens().get(5)).isEqualTo(0.0);
    assertThat(s.recallTokens().get(10)).isCloseTo(1 / 3.0, within(1e-12));
    assertThat(s.recallTokens().get(11)).isCloseTo(2 / 3.0, within(1e-12));
    assertThat(s.recallTokens().get(100)).isEqualTo(1.0);
    assertThat(EvidenceScorer.prefixWithin(new int[] {600}, 500)).isZero();
    assertThat(EvidenceScorer.prefixWithin(new int[] {250, 250, 1}, 500)).isEqualTo(2);
  }

  @Test
  void summariesAreMeansOverallAndPerCategory() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(1), List.of(10), WORDS);
    List<EvidenceItem> items = List.of(item("a", 0, t(1)));
    QuestionScore full = scorer.score(1, List.of(t(1)), items);
    QuestionScore half = scorer.score(1, List.of(t(1), t(2)), items);
    QuestionScore none = scorer.score(2, List.of(t(3)), items);
    SystemResult r = SystemResult.of("x", List.of(full, half, none));
    assertThat(r.overall().questions()).isEqualTo(3);
    assertThat(r.overall().recall().get(1)).isCloseTo(0.5, within(1e-12));
    assertThat(r.overall().hit().get(1)).isCloseTo(2 / 3.0, within(1e-12));
    assertThat(r.byCategory().get(1).recall().get(1)).isCloseTo(0.75, within(1e-12));
    assertThat(r.byCategory().get(1).hit().get(1)).isEqualTo(1.0);
    assertThat(r.byCategory().get(2).recallTokens().get(10)).isEqualTo(0.0);
    assertThat(r.byCategory()).containsOnlyKeys(1, 2);
  }

  @Test
  void rejectsQuestionsWithoutGoldAndBadSettings() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(1), List.of(1), WORDS);
    assertThatThrownBy(() -> scorer.score(1, List.of(), List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EvidenceScorer(List.of(0), List.of(), WORDS)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EvidenceScorer(List.of(), List.of(), WORDS)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void o200kCountsTokensOfRealText() {
    O200kTokenCounter o200k = new O200kTokenCounter();
    assertThat(o200k.count("")).isZero();
    assertThat(o200k.count(null)).isZero();
    assertThat(o200k.count("hello world")).isEqualTo(2);
    // Longer text costs more tokens, and more than one per word for rare words.
    assertThat(o200k.count("Nadia: I went to a community choir rehearsal yesterday")).isBetween(9, 14);
  }

  @Test
  void budgetModeScoresExactlyTheEvidenceSelectedForEachBudget() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(1, 2), List.of(5, 10), WORDS);
    List<EvidenceItem> prefix = List.of(item("Dana works at a bakery", 0, t(1)), item("x y z w v u", 0, t(2)));
    java.util.Map<Integer, dev.lychee.bench.systems.BudgetedRecall> budgeted = java.util.Map.of(
        5, new dev.lychee.bench.systems.BudgetedRecall(List.of(item("bakery since 2023-05-07", 0, t(2))), 4),
        10, new dev.lychee.bench.systems.BudgetedRecall(List.of(item("a", 0, t(1)), item("b", 0, t(2))), 11));
    QuestionScore s = scorer.score(4, List.of(t(1), t(2)), prefix, "bakery", budgeted);
    // prefix rule: 5 tokens hold the first item only; budget mode: what was selected for 5
    assertThat(s.recallTokens()).containsEntry(5, 0.5).containsEntry(10, 0.5);
    assertThat(s.budgetRecall()).containsEntry(5, 0.5).containsEntry(10, 1.0);
    assertThat(s.budgetTokens()).containsEntry(5, 4.0).containsEntry(10, 11.0);
    assertThat(s.contained()).containsEntry(5, 1.0).containsEntry(10, 1.0);
    assertThat(s.budgetContained()).containsEntry(5, 1.0).containsEntry(10, 0.0);
    assertThat(s.overBudget()).isEqualTo(1); // 11 tokens for a budget of 10

    SystemResult r = SystemResult.of("lychee", List.of(s, scorer.score(4, List.of(t(1)), prefix)));
    // questions without budget mode do not dilute its means
    assertThat(r.overall().budgetRecall()).containsEntry(10, 1.0);
    assertThat(r.overall().recallTokens()).containsEntry(10, 0.75);
    assertThat(r.overall().overBudget()).isEqualTo(1);
  }

  @Test
  void containmentReadsWhatABaselineItemShowsWithItsDateLine() {
    EvidenceScorer scorer = new EvidenceScorer(List.of(1), List.of(100), WORDS);
    EvidenceItem said = EvidenceItem.ofTurn(t(1), "Nadia: I went to the group yesterday.",
        java.time.LocalDateTime.of(2023, 5, 8, 13, 0));
    assertThat(said.shown()).endsWith("Mentioned: 2023-05-08");
    assertThat(scorer.tokens(said)).isEqualTo(7 + EvidenceItem.BASELINE_OVERHEAD_TOKENS);
    assertThat(scorer.score(2, List.of(t(1)), List.of(said), "8 May 2023", java.util.Map.of()).contained())
        .containsEntry(100, 1.0);
    assertThat(scorer.score(2, List.of(t(1)), List.of(said), "7 May 2023", java.util.Map.of()).contained())
        .containsEntry(100, 0.0);
  }
}
