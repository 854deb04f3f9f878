package dev.lychee.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.core.Lychee;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.advisor.LycheeMemoryAdvisor;
import dev.lychee.spring.boot.actuate.LycheeHealthIndicator;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot application with Spring AI's OpenAI starter pointed at a local OpenAI-protocol
 * server, a {@code ChatClient} with the auto-configured Lychee advisor, Lychee on a SQLite file and
 * on the application's own chat and embedding models. The one application context of this module.
 */
@SpringBootTest(classes = LycheeStarterAppTest.App.class)
// Closed after the class, not at JVM exit, so that the SQLite file is closed before JUnit deletes
// the temporary directory (a cached context kept it open and left the directory behind).
@DirtiesContext
@Timeout(120)
class LycheeStarterAppTest {

  private static final String RECORD = "{\"records\": [{\"semantic_text\": \"%s\", \"memory_type\": \"fact\","
      + " \"evidence_turns\": [0], \"source_role\": \"user\"}], \"disambiguation_context\": \"\"}";

  /** Encoder calls get one record quoting the user turn; planner calls a plain plan; the app "Noted.". */
  private static String reply(List<String> messages) {
    String first = messages.get(0);
    if (first.startsWith("You write long-term memory records")) {
      String all = messages.get(messages.size() - 1); // the turns; the system prompt has examples
      String said = all.contains("Lisbon") ? "The user's sister Zoe moved to Lisbon."
          : all.contains("Rufus") ? "The user adopted a beagle called Rufus." : null;
      return said == null ? "{\"records\": []}" : RECORD.formatted(said);
    }
    if (first.startsWith("You plan how to search")) {
      return "{\"question_type\": \"single\"}";
    }
    return "Noted.";
  }

  static final OpenAiStub STUB = new OpenAiStub(LycheeStarterAppTest::reply);
  @TempDir static Path dir;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry r) {
    r.add("spring.ai.openai.base-url", STUB::baseUrl);
    r.add("spring.ai.openai.api-key", () -> "sk-test");
    r.add("spring.ai.openai.chat.options.model", () -> "gpt-stub");
    r.add("spring.ai.openai.embedding.options.model", () -> "embed-stub");
    r.add("lychee.store.type", () -> "sqlite");
    r.add("lychee.store.path", () -> dir.resolve("memory.db").toString());
    r.add("lychee.embedder.type", () -> "spring-ai");
    r.add("lychee.embedder.dimension", () -> "64");
    r.add("lychee.segmenter", () -> "turn");
    r.add("lychee.llm.mode", () -> "llm");
    r.add("lychee.recall.max-results", () -> "5");
  }

  @AfterAll
  static void stop() {
    STUB.close();
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    // readme:begin spring-ai-advisor
    @Bean
    ChatClient chatClient(ChatClient.Builder builder, LycheeMemoryAdvisor memory) {
      return builder.defaultSystem("You are a helpful assistant.").defaultAdvisors(memory).build();
    }

    static String say(ChatClient chat, String user, String conversation, String text) {
      return chat.prompt().user(text)
          .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation)   // session
              .param(ConversationScopeResolver.USER_ID, user))               // namespace
          .call().content();
    }
    // readme:end spring-ai-advisor
  }

  @Autowired ChatClient chat;
  @Autowired Lychee lychee;
  @Autowired LycheeHealthIndicator health;
  @Autowired MeterRegistry meters;

  private String say(String user, String conversation, String text) {
    return App.say(chat, user, conversation, text);
  }

  private List<String> appPrompts() {
    return STUB.chatPrompts().stream().filter(p -> p.startsWith("You are a helpful assistant.")).toList();
  }

  @Test
  void rememberAcrossConversationsPerUserThroughTheApplicationsOwnModels() {
    assertThat(lychee.store().nextTurnIndex("alice", "monday")).isZero(); // a fresh file

    say("alice", "monday", "My sister Zoe moved to Lisbon last spring.");
    say("bob", "monday", "I adopted a beagle called Rufus.");
    // the exchanges reached Lychee, and the LLM encoder (on the app's model) wrote records
    assertThat(lychee.store().turns("alice", "monday")).extracting(RawTurn::text)
        .containsExactly("My sister Zoe moved to Lisbon last spring.", "Noted.");
    lychee.flushAll("alice");
    lychee.flushAll("bob");
    // the starter encodes in the background (the advisor never waits for the LLM); wait for it here
    assertThat(lychee.awaitIdle("alice", java.time.Duration.ofSeconds(60))).isTrue();
    assertThat(lychee.awaitIdle("bob", java.time.Duration.ofSeconds(60))).isTrue();
    assertThat(lychee.store().records("alice")).extracting(r -> r.text()).contains("The user's sister Zoe moved to Lisbon.");

    say("alice", "friday", "Which city does my sister live in?");
    String alice = appPrompts().get(appPrompts().size() - 1);
    assertThat(alice).contains("Long-term memory").contains("Lisbon").doesNotContain("Rufus");
    say("bob", "friday", "What is my dog called?");
    String bob = appPrompts().get(appPrompts().size() - 1);
    assertThat(bob).contains("Rufus").doesNotContain("Lisbon", "Zoe");

    // every request on the wire was made by the application's Spring AI clients: each one is an
    // observation of those clients (Spring AI records one per model call). A segment of friday's
    // conversations may be encoding in the background right now; its request reaches the stub
    // before its observation is recorded, so count once the encoders are idle
    assertThat(lychee.awaitIdle("alice", java.time.Duration.ofSeconds(60))).isTrue();
    assertThat(lychee.awaitIdle("bob", java.time.Duration.ofSeconds(60))).isTrue();
    long observed = meters.find("gen_ai.client.operation").timers().stream().mapToLong(t -> t.count()).sum();
    assertThat(STUB.server().requests()).hasSize((int) observed);
    assertThat(STUB.server().requestsTo("/v1/embeddings")).isNotEmpty();
    assertThat(STUB.chatPrompts()).anyMatch(p -> p.startsWith("You write long-term memory records"));

    // the advisor's meters and the health indicator
    assertThat(meters.get("lychee.advisor.recall").timer().count()).isEqualTo(4);
    assertThat(meters.get("lychee.advisor.turns").counter().count()).isEqualTo(8);
    var h = health.health();
    assertThat(h.getStatus()).isEqualTo(Status.UP);
    assertThat(h.getDetails()).containsEntry("store", "sqlite").containsEntry("namespaces", 2);
  }
}
