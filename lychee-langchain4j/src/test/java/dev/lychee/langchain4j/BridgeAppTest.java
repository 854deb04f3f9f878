package dev.lychee.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.embedding.listener.EmbeddingModelListener;
import dev.langchain4j.model.embedding.listener.EmbeddingModelRequestContext;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.lychee.api.Answer;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.Turn;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.conformance.ScriptedHttpServer;
import dev.lychee.langchain4j.bridge.Langchain4jChatModel;
import dev.lychee.langchain4j.bridge.Langchain4jEmbedder;
import dev.lychee.langchain4j.memory.LycheeChatMemoryStore;
import dev.lychee.langchain4j.retriever.LycheeContentRetriever;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lychee's encoder, planner and answerer running on the application's own langchain4j clients:
 * every request on the wire comes from those clients, and the tokens they report are Lychee's.
 */
@Timeout(60)
class BridgeAppTest {

  interface Assistant {
    String chat(@MemoryId String user, @UserMessage String message);
  }

  private static final String RECORD = """
      {"records": [{"semantic_text": "Alice's sister Zoe lives in Lisbon.", "memory_type": "fact",
        "entities": ["Zoe", "Lisbon"], "tags": ["family"], "evidence_turns": [0], "source_role": "user"}],
       "disambiguation_context": ""}""";

  private static String reply(List<String> messages) {
    String first = messages.get(0);
    if (first.startsWith("You write long-term memory records")) {
      // the last message holds the turns (the system prompt has examples of its own)
      return messages.get(messages.size() - 1).contains("Lisbon") ? RECORD : "{\"records\": []}";
    }
    if (first.startsWith("You plan how to search")) {
      return "{\"question_type\": \"single\", \"semantic_queries\": [\"Zoe city\"], \"evidence_routes\": []}";
    }
    if (first.startsWith("You answer questions")) {
      return "Lisbon";
    }
    return "Noted.";
  }

  private static int encoderCalls(OpenAiStub stub) {
    return (int) stub.chatPrompts().stream().filter(p -> p.startsWith("You write long-term memory records")).count();
  }

  @Test
  void lycheeCallsGoOnlyThroughTheApplicationsClientsAndCarryTheirUsage() {
    AtomicInteger chatCalls = new AtomicInteger();
    AtomicInteger embedCalls = new AtomicInteger();
    try (OpenAiStub stub = new OpenAiStub(BridgeAppTest::reply)) {
      Map<String, String> mark = Map.of("X-App-Client", "assistant-app");
      OpenAiChatModel chat = OpenAiChatModel.builder().baseUrl(stub.baseUrl()).apiKey("sk-test")
          .modelName("gpt-stub").customHeaders(mark)
          .listeners(List.of(new ChatModelListener() {
            @Override
            public void onRequest(ChatModelRequestContext c) {
              chatCalls.incrementAndGet();
            }
          })).build();
      OpenAiEmbeddingModel embeddings = OpenAiEmbeddingModel.builder().baseUrl(stub.baseUrl()).apiKey("sk-test")
          .modelName("embed-stub").customHeaders(mark)
          .listeners(List.of(new EmbeddingModelListener() {
            @Override
            public void onRequest(EmbeddingModelRequestContext c) {
              embedCalls.incrementAndGet();
            }
          })).build();

      LycheeConfig config = LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.LLM)
          // encoding on the caller's thread, so that the calls counted below are all made when append returns
          .ingest(dev.lychee.core.ingest.IngestConfig.builder().encodeMode(dev.lychee.core.ingest.IngestConfig.EncodeMode.SYNC).build()).build();
      try (Lychee memory = Lychee.builder().config(config)
          .chatModel(new Langchain4jChatModel(chat)).embedder(new Langchain4jEmbedder(embeddings, 64,
              dev.lychee.api.spi.EmbeddingProfile.TEXT_EMBEDDING_3_SMALL)).build()) {
        LycheeChatMemoryStore store = LycheeChatMemoryStore.builder(memory).build();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(chat)
            .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(10).chatMemoryStore(store).build())
            .contentRetriever(LycheeContentRetriever.builder(memory).build())
            .storeRetrievedContentInChatMemory(false)
            .build();

        assistant.chat("alice", "My sister Zoe moved to Lisbon last spring.");
        memory.flush("alice", "chat");
        assertThat(memory.store().records("alice")).extracting(MemoryRecord::text)
            .contains("Alice's sister Zoe lives in Lisbon.");

        int before = stub.chatPrompts().size();
        Answer answer = memory.answer("alice", "Where does Zoe live?");
        assertThat(answer.text()).isEqualTo("Lisbon");
        // one planner and one answer call, each reporting the stub's token counts
        assertThat(stub.chatPrompts().size() - before).isEqualTo(2);
        assertThat(answer.usage().inputTokens()).isEqualTo(2L * OpenAiStub.PROMPT_TOKENS);
        assertThat(answer.usage().outputTokens()).isEqualTo(2L * OpenAiStub.COMPLETION_TOKENS);

        // the encoder's usage is what the application's client reported, call by call
        int encoderCallsBefore = encoderCalls(stub);
        IngestResult ingest = memory.append("carol", "s1", List.of(
            Turn.user("Carol", "My sister Zoe moved to Lisbon."), Turn.assistant("Lovely.")))
            .plus(memory.flush("carol", "s1"));
        int encoderCalls = encoderCalls(stub) - encoderCallsBefore;
        assertThat(encoderCalls).isPositive();
        assertThat(ingest.usage()).isEqualTo(new TokenUsage(
            (long) encoderCalls * OpenAiStub.PROMPT_TOKENS, (long) encoderCalls * OpenAiStub.COMPLETION_TOKENS));

        String second = assistant.chat("alice", "Remind me where Zoe lives?");
        assertThat(second).isEqualTo("Noted.");
        assertThat(stub.chatPrompts().get(stub.chatPrompts().size() - 1)).contains("Alice's sister Zoe lives in Lisbon.");
      }

      List<ScriptedHttpServer.Request> all = stub.server().requests();
      assertThat(all).isNotEmpty().allSatisfy(r -> assertThat(r.headers()).containsEntry("x-app-client", "assistant-app"));
      assertThat(stub.server().requestsTo("/v1/chat/completions")).hasSize(chatCalls.get());
      assertThat(stub.server().requestsTo("/v1/embeddings")).hasSize(embedCalls.get()).isNotEmpty();
      assertThat(all).hasSize(chatCalls.get() + embedCalls.get());
    }
  }
}
