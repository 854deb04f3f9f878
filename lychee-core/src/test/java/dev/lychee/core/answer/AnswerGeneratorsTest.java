package dev.lychee.core.answer;

import dev.lychee.api.Answer;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.core.testing.Cands;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class AnswerGeneratorsTest {
  private static final Question Q = Question.of("ns", "What instrument does Dana play?");
  private static final RecallPlan PLAN = RecallPlan.singleRoute(Q.text());

  private final List<Evidence> evidence = List.of(
      new Evidence(1, .9, Cands.turn("s1", 1, "Omar: I went fishing on Sunday. The lake was calm.", .9)),
      new Evidence(2, .8, Cands.turn("s1", 2, "Dana: Nice! I finally bought a cello. I play it every evening.", .8)));

  @Test
  void extractiveAnswersFromTheBestSupportedSentenceAndPutsItsItemFirst() {
    Answer a = new ExtractiveAnswerGenerator().answer(Q, PLAN, evidence);
    // the words of "I play it every evening." that the question does not already hold
    assertThat(a.text()).isEqualTo("every evening");
    assertThat(a.evidence().get(0).rank()).isEqualTo(2);
    assertThat(a.evidence()).hasSize(2);
    assertThat(a.usage()).isEqualTo(TokenUsage.ZERO);
  }

  @Test
  void withoutEvidenceBothSayNotAvailable() {
    assertThat(new ExtractiveAnswerGenerator().answer(Q, PLAN, List.of()).text())
        .isEqualTo(LlmAnswerGenerator.NOT_AVAILABLE);
    List<ChatRequest> seen = new ArrayList<>();
    ChatModel chat = chat(seen, "cello", TokenUsage.ZERO);
    assertThat(new LlmAnswerGenerator(chat, t -> 1).answer(Q, PLAN, List.of()).text())
        .isEqualTo(LlmAnswerGenerator.NOT_AVAILABLE);
    assertThat(seen).isEmpty();
  }

  @Test
  void llmAnswererSendsBothBlocksAndTheQuestion() {
    List<ChatRequest> seen = new ArrayList<>();
    Answer a = new LlmAnswerGenerator(chat(seen, "  a cello \n", new TokenUsage(300, 3)), t -> 1)
        .answer(Q, PLAN, evidence);
    assertThat(a.text()).isEqualTo("a cello");
    assertThat(a.usage()).isEqualTo(new TokenUsage(300, 3));
    assertThat(seen).hasSize(1);
    String user = seen.get(0).messages().get(1).content();
    assertThat(user).contains("Memory records:", "Conversation excerpts:", "[2] Dana: Nice!",
        "Mentioned: 2023-05-08").endsWith("Question: What instrument does Dana play?\nAnswer:");
    assertThat(seen.get(0).messages().get(0).content()).contains("Time basis");
  }

  @Test
  void llmAnswererCountsTokensWhenTheProviderReportsNone() {
    Answer a = new LlmAnswerGenerator(chat(new ArrayList<>(), "cello", TokenUsage.ZERO), t -> t == null ? 0 : 2)
        .answer(Q, PLAN, evidence);
    assertThat(a.usage()).isEqualTo(new TokenUsage(4, 2));
  }

  private static ChatModel chat(List<ChatRequest> seen, String reply, TokenUsage usage) {
    return new ChatModel() {
      @Override
      public ChatResult chat(ChatRequest request) {
        seen.add(request);
        return new ChatResult(reply, usage, "m");
      }

      @Override
      public String modelId() {
        return "m";
      }
    };
  }
}
