package dev.lychee.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.conformance.ScriptedHttpServer;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.spring.ai.advisor.LycheeMemoryAdvisor;
import dev.lychee.spring.ai.bridge.SpringAiChatModel;
import dev.lychee.spring.ai.bridge.SpringAiEmbedder;
import dev.lychee.spring.ai.retriever.LycheeDocumentRetriever;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.OpenAiEmbeddingModel;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.util.LinkedMultiValueMap;

/**
 * Spring AI's {@code ChatClient} and OpenAI client (no Boot) talking to a local OpenAI-protocol
 * server, with Lychee behind the advisor, the document retriever and the bridges.
 */
@Timeout(60)
class SpringAiAppTest {

  private static OpenAiApi api(OpenAiStub stub) {
    LinkedMultiValueMap<String, String> headers = new LinkedMultiValueMap<>();
    headers.add("X-App-Client", "spring-app");
    return OpenAiApi.builder().baseUrl(stub.baseUrl()).apiKey("sk-test").headers(headers).build();
  }

  private static OpenAiChatModel chatModel(OpenAiStub stub) {
    return OpenAiChatModel.builder().openAiApi(api(stub))
        .defaultOptions(OpenAiChatOptions.builder().model("gpt-stub").build()).build();
  }

  private static Lychee offlineMemory() {
    return Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build();
  }

  private static String say(ChatClient client, String user, String conversation, String text) {
    return client.prompt().user(text)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation).param(ConversationScopeResolver.USER_ID, user))
        .call().content();
  }

  @Test
  void theAdvisorPutsEachUsersEarlierMemoryIntoTheSystemMessageAndRemembersTheExchange() {
    try (OpenAiStub stub = new OpenAiStub(m -> "Noted."); Lychee memory = offlineMemory()) {
      ChatClient client = ChatClient.builder(chatModel(stub))
          .defaultSystem("You are a helpful assistant.")
          .defaultAdvisors(LycheeMemoryAdvisor.builder(memory).maxResults(5).build()).build();

      say(client, "alice", "monday", "My sister Zoe moved to Lisbon last spring.");
      say(client, "bob", "tuesday", "I adopted a beagle called Rufus.");
      assertThat(memory.store().turns("alice", "monday")).extracting(RawTurn::role, RawTurn::text).containsExactly(
          org.assertj.core.groups.Tuple.tuple(Role.USER, "My sister Zoe moved to Lisbon last spring."),
          org.assertj.core.groups.Tuple.tuple(Role.ASSISTANT, "Noted."));

      int before = stub.chatPrompts().size();
      say(client, "alice", "friday", "Which city does my sister Zoe live in?");
      List<String> system = OpenAiStub.contents(stub.server().requestsTo("/v1/chat/completions").get(before).body());
      // the memory block is appended to the system message; the user message stays as written
      assertThat(system.get(0)).startsWith("You are a helpful assistant.").contains("Long-term memory")
          .contains("Lisbon").doesNotContain("Rufus");
      assertThat(system.get(1)).isEqualTo("Which city does my sister Zoe live in?");

      say(client, "bob", "friday", "What is my beagle called?");
      assertThat(stub.chatPrompts().get(before + 1)).contains("Rufus").doesNotContain("Lisbon", "Zoe");
      assertThat(memory.store().turns("alice", "friday")).hasSize(2);
    }
  }

  @Test
  void theDocumentRetrieverServesRetrievalAugmentationPerUser() {
    try (OpenAiStub stub = new OpenAiStub(m -> "Noted."); Lychee memory = offlineMemory()) {
      memory.append("alice", "s1", List.of(Turn.user("Alice", "My sister Zoe moved to Lisbon."), Turn.assistant("Nice.")));
      memory.append("bob", "s1", List.of(Turn.user("Bob", "My sister Ana moved to Porto."), Turn.assistant("Nice.")));
      OpenAiChatModel chatModel = chatModel(stub);
      // readme:begin spring-ai-rag
      ChatClient client = ChatClient.builder(chatModel)
          .defaultAdvisors(RetrievalAugmentationAdvisor.builder()
              .documentRetriever(new LycheeDocumentRetriever(memory)).build())
          .build();
      // readme:end spring-ai-rag

      say(client, "alice", "c1", "Where did my sister move to?");
      assertThat(stub.chatPrompts().get(0)).contains("Lisbon").doesNotContain("Porto");
      say(client, "bob", "c2", "Where did my sister move to?");
      assertThat(stub.chatPrompts().get(1)).contains("Porto").doesNotContain("Lisbon");
    }
  }

  @Test
  void lycheeRunsOnTheApplicationsSpringAiModelsOnly() {
    String record = "{\"records\": [{\"semantic_text\": \"Zoe lives in Lisbon.\", \"memory_type\": \"fact\","
        + " \"entities\": [\"Zoe\"], \"evidence_turns\": [0], \"source_role\": \"user\"}], \"disambiguation_context\": \"\"}";
    try (OpenAiStub stub = new OpenAiStub(m -> m.get(0).startsWith("You write long-term memory records") ? record
        : m.get(0).startsWith("You plan how to search") ? "{\"question_type\": \"single\", \"semantic_queries\": [\"Zoe\"]}"
        : "Lisbon")) {
      OpenAiEmbeddingModel embeddings = new OpenAiEmbeddingModel(api(stub));
      LycheeConfig config = LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.LLM)
          // encoding on the caller's thread, so that the calls counted below are all made when append returns
          .ingest(dev.lychee.core.ingest.IngestConfig.builder().encodeMode(dev.lychee.core.ingest.IngestConfig.EncodeMode.SYNC).build()).build();
      try (Lychee memory = Lychee.builder().config(config).chatModel(new SpringAiChatModel(chatModel(stub)))
          .embedder(new SpringAiEmbedder(embeddings, "embed-stub", 64,
              dev.lychee.api.spi.EmbeddingProfile.TEXT_EMBEDDING_3_SMALL)).build()) {
        var ingest = memory.append("alice", "s1", List.of(Turn.user("Alice", "My sister Zoe moved to Lisbon."),
            Turn.assistant("Lovely."))).plus(memory.flush("alice", "s1"));
        long encoderCalls = stub.chatPrompts().stream().filter(p -> p.startsWith("You write long-term memory records")).count();
        assertThat(encoderCalls).isPositive();
        assertThat(ingest.usage()).isEqualTo(new TokenUsage(encoderCalls * OpenAiStub.PROMPT_TOKENS,
            encoderCalls * OpenAiStub.COMPLETION_TOKENS));
        assertThat(memory.store().records("alice")).extracting(r -> r.text()).contains("Zoe lives in Lisbon.");
        var answer = memory.answer("alice", "Where does Zoe live?");
        assertThat(answer.text()).isEqualTo("Lisbon");
        assertThat(answer.usage()).isEqualTo(new TokenUsage(2L * OpenAiStub.PROMPT_TOKENS, 2L * OpenAiStub.COMPLETION_TOKENS));
      }
      List<ScriptedHttpServer.Request> all = stub.server().requests();
      assertThat(all).isNotEmpty().allSatisfy(r -> assertThat(r.headers()).containsEntry("x-app-client", "spring-app"));
      assertThat(stub.server().requestsTo("/v1/embeddings")).isNotEmpty();
    }
  }
}
