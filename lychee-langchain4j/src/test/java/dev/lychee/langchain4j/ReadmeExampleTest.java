package dev.lychee.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.lychee.core.Lychee;
import dev.lychee.langchain4j.bridge.Langchain4jChatModel;
import dev.lychee.langchain4j.bridge.Langchain4jEmbedder;
import dev.lychee.langchain4j.memory.LycheeChatMemoryStore;
import dev.lychee.langchain4j.retriever.LycheeContentRetriever;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the README's langchain4j example against a local OpenAI-protocol server. */
@Timeout(60)
class ReadmeExampleTest {

  // readme:begin langchain4j
  interface Assistant { String chat(@MemoryId String user, @UserMessage String message); }

  static Assistant assistant(ChatModel chatModel, EmbeddingModel embeddingModel) {
    Lychee memory = Lychee.builder()                      // Lychee runs on the app's own models
        .chatModel(new Langchain4jChatModel(chatModel))
        .embedder(new Langchain4jEmbedder(embeddingModel)).build();
    ChatMemoryStore store = LycheeChatMemoryStore.builder(memory).build();
    return AiServices.builder(Assistant.class)
        .chatModel(chatModel)
        .chatMemoryProvider(id -> MessageWindowChatMemory.builder()
            .id(id).maxMessages(20).chatMemoryStore(store).build())
        .contentRetriever(LycheeContentRetriever.builder(memory).build())
        .storeRetrievedContentInChatMemory(false)          // remember what was said, not the evidence
        .build();
  }
  // readme:end langchain4j

  @Test
  void theReadmeAssistantRemembersAcrossItsShortWindow() {
    try (OpenAiStub stub = new OpenAiStub(m -> m.get(0).startsWith("You write long-term memory records")
        ? "{\"records\": []}" : m.get(0).startsWith("You plan how to search") ? "{}" : "Noted.")) {
      Assistant assistant = assistant(
          OpenAiChatModel.builder().baseUrl(stub.baseUrl()).apiKey("sk-test").modelName("gpt-stub").build(),
          OpenAiEmbeddingModel.builder().baseUrl(stub.baseUrl()).apiKey("sk-test").modelName("embed-stub").build());
      assertThat(assistant.chat("alice", "My sister Zoe moved to Lisbon.")).isEqualTo("Noted.");
      for (int i = 0; i < 12; i++) { // push the first exchange out of the 20-message window
        assistant.chat("alice", "Filler message number " + i + " about the weather.");
      }
      assistant.chat("alice", "Where did my sister Zoe move to?");
      // the app's own last call; Lychee's encoder may still be working in the background beside it
      List<String> appCalls = stub.chatPrompts().stream()
          .filter(p -> !p.startsWith("You write long-term memory records") && !p.startsWith("You plan how to search"))
          .toList();
      assertThat(appCalls.get(appCalls.size() - 1)).contains("Where did my sister Zoe move to?").contains("Lisbon");
    }
  }
}
