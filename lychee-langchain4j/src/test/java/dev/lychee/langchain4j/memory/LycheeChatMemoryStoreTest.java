package dev.lychee.langchain4j.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.lychee.api.RawTurn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.RefusingEmbedder;
import dev.lychee.langchain4j.MemoryScopeResolver;
import dev.lychee.langchain4j.WarnLog;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LycheeChatMemoryStoreTest {
  private final Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
      .config(LycheeConfig.builder().llm(LycheeConfig.Mode.OFFLINE).build()).build();
  private final LycheeChatMemoryStore store = LycheeChatMemoryStore.builder(lychee).build();

  @AfterEach
  void close() {
    lychee.close();
  }

  private List<String> stored(String user) {
    return lychee.store().turns(user, "chat").stream().map(RawTurn::text).toList();
  }

  @Test
  void repeatedUpdatesWithTheSameWindowStoreNothingTwice() {
    List<ChatMessage> window = List.of(SystemMessage.from("Be brief."), UserMessage.from("I live in Oslo."),
        AiMessage.from("Nice city."));
    store.updateMessages("ann", window);
    store.updateMessages("ann", window);
    store.updateMessages("ann", new ArrayList<>(window));
    assertThat(stored("ann")).containsExactly("I live in Oslo.", "Nice city.");
    assertThat(store.getMessages("ann")).isEqualTo(window); // the framework's window is kept as given
  }

  @Test
  void aSlidingWindowAppendsOnlyWhatIsNewAtTheNextIndices() {
    ChatMemoryStore counted = store;
    MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("ann").maxMessages(2)
        .chatMemoryStore(counted).build();
    for (int i = 0; i < 5; i++) {
      memory.add(UserMessage.from("question " + i));
      memory.add(AiMessage.from("answer " + i));
    }
    assertThat(memory.messages()).hasSize(2);
    List<RawTurn> turns = lychee.store().turns("ann", "chat");
    assertThat(turns).extracting(RawTurn::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertThat(turns.get(9).text()).isEqualTo("answer 4");
    // the same message said again later is a new turn, not a re-send
    memory.add(UserMessage.from("question 4"));
    assertThat(stored("ann")).hasSize(11).last().isEqualTo("question 4");
  }

  @Test
  void toolMachineryAndSystemMessagesAreNotRemembered() {
    store.updateMessages("ann", List.of(SystemMessage.from("You are a bot."), UserMessage.from("Weather?"),
        AiMessage.from(dev.langchain4j.agent.tool.ToolExecutionRequest.builder().id("1").name("weather").arguments("{}").build()),
        ToolExecutionResultMessage.from("1", "weather", "sunny"), AiMessage.from("It is sunny.")));
    assertThat(stored("ann")).containsExactly("Weather?", "It is sunny.");
  }

  @Test
  void deleteMessagesForgetsTheSessionAndOnlyIt() {
    store.updateMessages("ann", List.of(UserMessage.from("My cat is Tom.")));
    store.updateMessages("ben", List.of(UserMessage.from("My cat is Max.")));
    store.deleteMessages("ann");
    assertThat(store.getMessages("ann")).isEmpty();
    assertThat(lychee.store().turns("ann", "chat")).isEmpty();
    assertThat(stored("ben")).containsExactly("My cat is Max.");
  }

  /**
   * Messages stored but not embedded (the embedding model refuses them) give one WARN per update,
   * naming the failure's kind and neither the refusal's secret-bearing cause nor the user's words;
   * the update itself goes on.
   */
  @Test
  void storedMessagesWhoseEmbeddingFailedAreLoggedOncePerUpdate() {
    try (Lychee refusing = Lychee.builder().embedder(new RefusingEmbedder()).build();
         WarnLog warnings = WarnLog.of(LycheeChatMemoryStore.class)) {
      LycheeChatMemoryStore s = LycheeChatMemoryStore.builder(refusing).build();
      List<ChatMessage> window = List.of(UserMessage.from("I live in Oslo."), AiMessage.from("Nice city."));
      s.updateMessages("ann", window);
      assertThat(s.getMessages("ann")).isEqualTo(window);
      assertThat(refusing.store().turns("ann", "chat")).hasSize(2);
      assertThat(warnings.lines()).singleElement().asString().contains("session 'chat'")
          .contains(RefusingEmbedder.REFUSAL).doesNotContain(RefusingEmbedder.SECRET).doesNotContain("Oslo");
      s.updateMessages("ann", window); // nothing new: nothing appended, nothing to say
      assertThat(warnings.lines()).hasSize(1);
    }
  }

  @Test
  void usersMapToTheirOwnNamespacesAndANullIdIsAClearError() {
    LycheeChatMemoryStore scoped = LycheeChatMemoryStore.builder(lychee)
        .resolver(MemoryScopeResolver.perMemoryId("support")).build();
    scoped.updateMessages(42, List.of(UserMessage.from("Order 7 is late.")));
    assertThat(lychee.store().turns("42", "support")).extracting(RawTurn::text).containsExactly("Order 7 is late.");
    assertThatThrownBy(() -> scoped.updateMessages(null, List.of(UserMessage.from("x"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("@MemoryId");
  }
}
