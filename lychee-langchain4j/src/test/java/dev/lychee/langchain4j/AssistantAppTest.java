package dev.lychee.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.langchain4j.memory.LycheeChatMemoryStore;
import dev.lychee.langchain4j.retriever.LycheeContentRetriever;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real langchain4j application: an {@code AiServices} assistant with one {@code @MemoryId} per
 * user, langchain4j's OpenAI client talking to a local OpenAI-protocol server, Lychee on a SQLite
 * file behind the retriever and the chat memory store. The assertions read the prompts on the wire.
 */
@Timeout(60)
class AssistantAppTest {

  interface Assistant {
    String chat(@MemoryId String user, @UserMessage String message);
  }

  @TempDir Path dir;

  private static Lychee openMemory(Path file) {
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build();
    return Lychee.create(config, new SqliteStoreModule(file), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
      }
    });
  }

  private static Assistant assistant(Lychee memory, OpenAiStub stub, String session) {
    MemoryScopeResolver scopes = MemoryScopeResolver.perMemoryId(session);
    LycheeChatMemoryStore store = LycheeChatMemoryStore.builder(memory).resolver(scopes).build();
    return AiServices.builder(Assistant.class)
        .chatModel(OpenAiChatModel.builder().baseUrl(stub.baseUrl()).apiKey("sk-test").modelName("gpt-stub").build())
        .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(4).chatMemoryStore(store).build())
        .contentRetriever(LycheeContentRetriever.builder(memory).resolver(scopes).maxResults(5).build())
        .storeRetrievedContentInChatMemory(false)
        .build();
  }

  @Test
  void recallsAnEarlierSessionPerUserAndFeedsNewTurnsToLychee() {
    Path db = dir.resolve("memory.db");
    try (OpenAiStub stub = new OpenAiStub(messages -> "Noted.")) {
      try (Lychee memory = openMemory(db)) {
        Assistant day1 = assistant(memory, stub, "day-1");
        day1.chat("alice", "My sister Zoe moved to Lisbon last spring.");
        day1.chat("alice", "I am learning to play the cello on weekends.");
        day1.chat("alice", "My favourite food is mushroom risotto.");
        day1.chat("bob", "I adopted a beagle called Rufus.");

        // every message reached Lychee, in order, with explicit indices past the 4-message window
        List<RawTurn> alice = memory.store().turns("alice", "day-1");
        assertThat(alice).extracting(RawTurn::index).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(alice).extracting(RawTurn::role)
            .containsExactly(Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT);
        assertThat(alice.get(0).text()).isEqualTo("My sister Zoe moved to Lisbon last spring.");
        assertThat(alice.get(4).text()).isEqualTo("My favourite food is mushroom risotto.");
        assertThat(alice).noneMatch(t -> t.text().contains("Answer using")); // evidence is not remembered as said
        assertThat(memory.store().turns("bob", "day-1")).extracting(RawTurn::text)
            .containsExactly("I adopted a beagle called Rufus.", "Noted.");
      }

      // a later run of the application: a new session, an empty window, the same memory file
      int before = stub.chatPrompts().size();
      try (Lychee memory = openMemory(db)) {
        Assistant day2 = assistant(memory, stub, "day-2");
        day2.chat("alice", "Which city does my sister Zoe live in now?");
        String alicePrompt = stub.chatPrompts().get(before);
        assertThat(alicePrompt).contains("Which city does my sister Zoe live in now?")
            .contains("Lisbon")
            .doesNotContain("Rufus", "beagle");

        day2.chat("bob", "What is the name of my beagle?");
        String bobPrompt = stub.chatPrompts().get(before + 1);
        assertThat(bobPrompt).contains("Rufus").doesNotContain("Lisbon", "Zoe", "cello", "risotto");

        assertThat(memory.store().turns("alice", "day-2")).extracting(RawTurn::text)
            .containsExactly("Which city does my sister Zoe live in now?", "Noted.");
      }
    }
  }
}
