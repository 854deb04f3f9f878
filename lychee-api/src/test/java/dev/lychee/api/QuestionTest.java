package dev.lychee.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class QuestionTest {
  @Test
  void aQuestionHasNoTokenBudgetUnlessGivenOne() {
    Question q = Question.of("alice", "Where does Dana work?");
    assertThat(q.hasTokenBudget()).isFalse();
    assertThat(q.tokenBudget()).isEqualTo(Question.NO_TOKEN_BUDGET);
    assertThat(new Question("alice", "q", 5, null)).isEqualTo(new Question("alice", "q", 5, null, 0));
  }

  @Test
  void theBudgetIsKeptByTheOtherWithers() {
    LocalDateTime at = LocalDateTime.of(2024, 5, 1, 12, 0);
    Question q = new Question("alice", "Where does Dana work?", 10, at).withTokenBudget(1000);
    assertThat(q.hasTokenBudget()).isTrue();
    assertThat(q.tokenBudget()).isEqualTo(1000);
    Question deeper = q.withK(30);
    assertThat(deeper.tokenBudget()).isEqualTo(1000);
    assertThat(deeper.k()).isEqualTo(30);
    assertThat(deeper.askedAt()).isEqualTo(at);
    assertThat(q.withoutTokenBudget().hasTokenBudget()).isFalse();
    assertThat(q.withoutTokenBudget().k()).isEqualTo(10);
    assertThat(q.withTokenBudget(Question.MIN_TOKEN_BUDGET).tokenBudget()).isEqualTo(32);
    assertThat(q.withTokenBudget(Question.MAX_TOKEN_BUDGET).tokenBudget()).isEqualTo(1_000_000);
  }

  @Test
  void badBudgetsAreRejectedWithTheAllowedRange() {
    Question q = Question.of("alice", "q");
    for (int bad : new int[] {-1, 1, 31, 1_000_001, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
      assertThatThrownBy(() -> q.withTokenBudget(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("tokenBudget must be between 32 and 1000000 tokens (or 0 for none): " + bad);
      assertThatThrownBy(() -> new Question("alice", "q", 5, null, bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tokenBudget must be between 32 and 1000000");
    }
    assertThatThrownBy(() -> q.withTokenBudget(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("withoutTokenBudget()");
  }
}
