package dev.lychee.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Answer;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's token-budget example, run through the facade. */
class TokenBudgetExampleTest {
  @Test
  void theReadmeExampleKeepsItsEvidenceWithinTheBudget() {
    try (Lychee memory = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      memory.append("alice", "s1", LocalDateTime.of(2024, 9, 2, 18, 0), List.of(
          Turn.user("Alice", "My sister is visiting on October 12th, she is bringing her two kids."),
          Turn.user("Bob", "Great, will you take them to the aquarium again?"),
          Turn.user("Alice", "Probably, the kids loved the shark tunnel last time.")));
      memory.flush("alice", "s1");
      // readme:begin token-budget
      Question question = Question.of("alice", "When is Alice's sister visiting?")
          .withTokenBudget(1000);                      // at most 1,000 tokens of evidence
      Recall recall = memory.recall(question);        // chosen to fit, windows cut to fit
      Answer answer = memory.answer(question);        // the answer prompt shows exactly that evidence
      // readme:end token-budget
      EvidenceTokens tokens = new EvidenceTokens(new O200kTokenCounter());
      assertThat(recall.evidence()).isNotEmpty();
      assertThat(tokens.count(recall.evidence())).isLessThanOrEqualTo(1000);
      assertThat(tokens.count(answer.evidence())).isLessThanOrEqualTo(1000);
      assertThat(answer.text()).isNotBlank();
      Recall tight = memory.recall(question.withTokenBudget(Question.MIN_TOKEN_BUDGET));
      assertThat(tokens.count(tight.evidence())).isLessThanOrEqualTo(Question.MIN_TOKEN_BUDGET);
    }
  }
}
