package dev.lychee.spring.ai.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Question;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.LongTalk;
import dev.lychee.spring.ai.ConversationScope;
import dev.lychee.spring.ai.ConversationScopeResolver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/** The advisor's failure paths and configuration checks. */
class LycheeMemoryAdvisorTest {

  /** A chat model that records prompts; these tests are about the advisor around it. */
  private static final class RecordingModel implements ChatModel {
    final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse call(Prompt prompt) {
      prompts.add(prompt);
      return new ChatResponse(List.of(new Generation(new AssistantMessage("fine"))));
    }
  }

  private static final class Events implements AdvisorListener {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void recalled(ConversationScope scope, int evidence, long nanos) {
      seen.add("recalled " + scope.namespace());
    }

    @Override
    public void appended(ConversationScope scope, int turnsStored) {
      seen.add("appended " + scope.session() + " " + turnsStored);
    }

    @Override
    public void failed(ConversationScope scope, String stage, RuntimeException error) {
      seen.add("failed " + stage);
    }
  }

  @Test
  void aBrokenMemoryNeverFailsTheChatCall() {
    Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build();
    lychee.close(); // every recall and append now throws
    Events events = new Events();
    RecordingModel model = new RecordingModel();
    ChatClient client = ChatClient.builder(model)
        .defaultAdvisors(LycheeMemoryAdvisor.builder(lychee).listener(events).build()).build();
    String answer = client.prompt().user("hello").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c1")).call().content();
    assertThat(answer).isEqualTo("fine");
    assertThat(events.seen).containsExactly("failed recall", "failed append");
    assertThat(model.prompts.get(0).getSystemMessage().getText()).doesNotContain("Long-term memory");
  }

  @Test
  void anExchangeIsAppendedOnceWithTheUserTextAsWritten() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      Events events = new Events();
      ChatClient client = ChatClient.builder(new RecordingModel())
          .defaultAdvisors(LycheeMemoryAdvisor.builder(lychee).listener(events).build()).build();
      client.prompt().user("I like green tea.").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c1")).call().content();
      assertThat(events.seen).containsExactly("recalled c1", "appended c1 2");
      assertThat(lychee.store().turns("c1", "c1")).extracting(t -> t.text()).containsExactly("I like green tea.", "fine");
    }
  }

  @Test
  void aCallThatNamesNoOneIsRefusedAndBadSettingsAreNamed() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      ChatClient client = ChatClient.builder(new RecordingModel())
          .defaultAdvisors(LycheeMemoryAdvisor.builder(lychee).build()).build();
      assertThatThrownBy(() -> client.prompt().user("hi").call().content())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ConversationScopeResolver.USER_ID);
      assertThatThrownBy(() -> LycheeMemoryAdvisor.builder(lychee).template("no placeholder").build())
          .hasMessageContaining("{memory}");
      assertThatThrownBy(() -> LycheeMemoryAdvisor.builder(lychee).maxResults(0).build())
          .hasMessageContaining("maxResults");
    }
  }

  @Test
  void aTokenBudgetReachesRecallAndShrinksTheMemoryBlock() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      LongTalk.tell(lychee, "ann");
      // the budgeted call goes first: each call remembers its exchange, which only adds to what the next recalls
      String budgeted = systemText(lychee, LycheeMemoryAdvisor.builder(lychee).maxResults(10)
          .tokenBudget(Question.MIN_TOKEN_BUDGET).build());
      String unbounded = systemText(lychee, LycheeMemoryAdvisor.builder(lychee).maxResults(10).build());
      assertThat(unbounded).contains("Lisbon");
      assertThat(budgeted.length()).isLessThan(unbounded.length());
    }
  }

  private static String systemText(Lychee lychee, LycheeMemoryAdvisor advisor) {
    RecordingModel model = new RecordingModel();
    ChatClient.builder(model).defaultAdvisors(advisor).build().prompt()
        .user("What did my sister and I do in Lisbon?")
        .advisors(a -> a.param(ConversationScopeResolver.USER_ID, "ann").param(ChatMemory.CONVERSATION_ID, "c9"))
        .call().content();
    return model.prompts.get(0).getSystemMessage().getText();
  }

  @Test
  void anOutOfRangeTokenBudgetFailsAtBuildNamingTheRange() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      assertThatThrownBy(() -> LycheeMemoryAdvisor.builder(lychee).tokenBudget(Question.MIN_TOKEN_BUDGET - 1).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tokenBudget must be between " + Question.MIN_TOKEN_BUDGET + " and "
              + Question.MAX_TOKEN_BUDGET);
    }
  }
}
