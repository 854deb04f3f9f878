package dev.lychee.spring.ai.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Question;
import dev.lychee.api.RawTurn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.LongTalk;
import dev.lychee.core.testing.RefusingEmbedder;
import dev.lychee.spring.ai.ConversationScope;
import dev.lychee.spring.ai.ConversationScopeResolver;
import dev.lychee.spring.ai.WarnLog;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** The advisor's failure paths, dates, threads and configuration checks. */
class LycheeMemoryAdvisorTest {

  /** A chat model that records prompts; these tests are about the advisor around it. */
  private static final class RecordingModel implements ChatModel {
    final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    @Override
    public ChatResponse call(Prompt prompt) {
      prompts.add(prompt);
      return new ChatResponse(List.of(new Generation(new AssistantMessage("fine"))));
    }

    /** Two chunks, emitted on the subscribing thread. */
    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
      prompts.add(prompt);
      return Flux.just(new ChatResponse(List.of(new Generation(new AssistantMessage("fi")))),
          new ChatResponse(List.of(new Generation(new AssistantMessage("ne")))));
    }
  }

  private static final class Events implements AdvisorListener {
    final List<String> seen = new CopyOnWriteArrayList<>();
    final List<String> errors = new CopyOnWriteArrayList<>();
    /** The threads recall and append ran on (the listener is called on the advisor's thread). */
    final List<String> threads = new CopyOnWriteArrayList<>();

    @Override
    public void recalled(ConversationScope scope, int evidence, long nanos) {
      seen.add("recalled " + scope.namespace());
      threads.add(Thread.currentThread().getName());
    }

    @Override
    public void appended(ConversationScope scope, int turnsStored) {
      seen.add("appended " + scope.session() + " " + turnsStored);
      threads.add(Thread.currentThread().getName());
    }

    @Override
    public void failed(ConversationScope scope, String stage, RuntimeException error) {
      seen.add("failed " + stage);
      errors.add(error.getMessage());
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

  /**
   * An append that stores the turns and then fails (the embedding model refuses them) is no longer
   * silent: one WARN line and one listener failure of stage "ingest", naming the failure's kind and
   * neither the refusal's secret-bearing cause nor the user's words.
   */
  @Test
  void storedTurnsWhoseEmbeddingFailedAreReportedOnce() {
    try (Lychee lychee = Lychee.builder().embedder(new RefusingEmbedder()).build();
         WarnLog warnings = WarnLog.of(LycheeMemoryAdvisor.class)) {
      Events events = new Events();
      ChatClient client = ChatClient.builder(new RecordingModel())
          .defaultAdvisors(LycheeMemoryAdvisor.builder(lychee).listener(events).build()).build();
      String answer = client.prompt().user("I like green tea.").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c1"))
          .call().content();
      assertThat(answer).isEqualTo("fine");
      assertThat(lychee.store().turns("c1", "c1")).hasSize(2);
      assertThat(events.seen).containsExactly("recalled c1", "appended c1 2", "failed " + LycheeMemoryAdvisor.INGEST_STAGE);
      assertThat(warnings.lines()).singleElement().isEqualTo(events.errors.get(0));
      assertThat(events.errors.get(0)).contains("session 'c1'").contains(RefusingEmbedder.REFUSAL)
          .doesNotContain(RefusingEmbedder.SECRET).doesNotContain("green tea");
    }
  }

  /** Remembered turns carry the clock's time, so recalled lines say when ({@code - [date]}). */
  @Test
  void rememberedTurnsAreDatedByTheClock() {
    Clock clock = Clock.fixed(Instant.parse("2024-05-01T10:00:00Z"), ZoneOffset.UTC);
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      RecordingModel model = new RecordingModel();
      ChatClient client = ChatClient.builder(model)
          .defaultAdvisors(LycheeMemoryAdvisor.builder(lychee).clock(clock).build()).build();
      say(client, "c1", "My sister Zoe moved to Lisbon.");
      assertThat(lychee.store().turns("ann", "c1")).hasSize(2).extracting(RawTurn::time)
          .containsOnly(LocalDateTime.parse("2024-05-01T10:00"));
      say(client, "c2", "Where did my sister move?");
      assertThat(model.prompts.get(1).getSystemMessage().getText()).contains("- [2024-05-01] ").contains("Lisbon");
    }
  }

  private static void say(ChatClient client, String conversation, String text) {
    client.prompt().user(text)
        .advisors(a -> a.param(ConversationScopeResolver.USER_ID, "ann").param(ChatMemory.CONVERSATION_ID, conversation))
        .call().content();
  }

  /**
   * A stream subscribed on an event-loop thread: recall and append (both blocking) run on the
   * advisor's scheduler, never on that thread, and the exchange is stored before the stream ends.
   */
  @Test
  void aStreamsRecallAndAppendRunOnTheScheduler() throws InterruptedException {
    Scheduler own = Schedulers.newBoundedElastic(2, 10, "lychee-memory-test");
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build()) {
      for (boolean byDefault : new boolean[] {true, false}) {
        Events events = new Events();
        LycheeMemoryAdvisor.Builder advisor = LycheeMemoryAdvisor.builder(lychee).listener(events);
        ChatClient client = ChatClient.builder(new RecordingModel())
            .defaultAdvisors((byDefault ? advisor : advisor.scheduler(own)).build()).build();
        String session = byDefault ? "c1" : "c2";
        List<String> chunks = new CopyOnWriteArrayList<>();
        Thread loop = new Thread(() -> chunks.addAll(client.prompt().user("I like green tea.")
            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, session)).stream().content().collectList().block()),
            "reactor-http-nio-1");
        loop.start();
        loop.join();
        assertThat(String.join("", chunks)).isEqualTo("fine");
        assertThat(lychee.store().turns(session, session)).extracting(RawTurn::text)
            .containsExactly("I like green tea.", "fine");
        assertThat(events.seen).containsExactly("recalled " + session, "appended " + session + " 2");
        assertThat(events.threads).hasSize(2).doesNotContain("reactor-http-nio-1");
        if (!byDefault) {
          assertThat(events.threads).allSatisfy(t -> assertThat(t).startsWith("lychee-memory-test"));
        }
      }
    } finally {
      own.dispose();
    }
  }

  /** A pasted document over the question limit is recalled on its ends, not refused. */
  @Test
  void aMessageOverTheQuestionLimitIsRecalledOnItsEnds() {
    try (Lychee lychee = Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().segmenter("turn").llm(LycheeConfig.Mode.OFFLINE).build()).build()) {
      LongTalk.tell(lychee, "ann");
      Events events = new Events();
      RecordingModel model = new RecordingModel();
      ChatClient client = ChatClient.builder(model)
          .defaultAdvisors(LycheeMemoryAdvisor.builder(lychee).listener(events).build()).build();
      String pasted = "What did my sister and I do in Lisbon? Here are my notes:\n" + "la ".repeat(6_700);
      assertThat(pasted.length()).isGreaterThan(20_000);
      say(client, "c9", pasted);
      assertThat(events.seen).containsExactly("recalled ann", "appended c9 2");
      assertThat(model.prompts.get(0).getSystemMessage().getText()).contains("Long-term memory").contains("Lisbon");
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
