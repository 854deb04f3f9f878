package dev.lychee.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Question;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.testing.RefusingEmbedder;
import dev.lychee.spring.ai.advisor.AdvisorListener;
import dev.lychee.spring.ai.advisor.LycheeMemoryAdvisor;
import dev.lychee.spring.ai.retriever.LycheeDocumentRetriever;
import dev.lychee.spring.boot.actuate.LycheeHealthIndicator;
import dev.lychee.spring.boot.metrics.MicrometerAdvisorListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Property binding and back-off of {@link LycheeAutoConfiguration}, without starting an application. */
class LycheeAutoConfigurationTest {
  @TempDir Path dir;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(LycheeAutoConfiguration.class))
      .withBean(EmbeddingModel.class, HashingEmbeddingModel::new)
      .withPropertyValues("lychee.store.type=memory");

  @Test
  void bindsEveryPropertyGroup() {
    runner.withPropertyValues("lychee.store.type=sqlite", "lychee.store.path=" + dir.resolve("sub/m.db"),
        "lychee.embedder.type=spring-ai", "lychee.embedder.dimension=32", "lychee.segmenter=fixed",
        "lychee.llm.mode=offline", "lychee.recall.max-results=3", "lychee.recall.token-budget=500", "lychee.encoding.async=false",
        "lychee.advisor.order=42").run(ctx -> {
      LycheeProperties p = ctx.getBean(LycheeProperties.class);
      assertThat(p.store().type()).isEqualTo(LycheeProperties.StoreType.SQLITE);
      assertThat(p.embedder().dimension()).isEqualTo(32);
      assertThat(p.recall().maxResults()).isEqualTo(3);
      assertThat(p.recall().tokenBudget()).isEqualTo(500);
      assertThat(p.encoding().async()).isFalse();
      Lychee lychee = ctx.getBean(Lychee.class);
      assertThat(lychee.config().ingest().encodeMode()).isEqualTo(IngestConfig.EncodeMode.SYNC);
      assertThat(lychee.config().segmenter()).isEqualTo("fixed");
      assertThat(lychee.config().encoder()).isEqualTo(LycheeConfig.Mode.OFFLINE);
      assertThat(lychee.embedder().dimension()).isEqualTo(32);
      assertThat(Files.exists(dir.resolve("sub/m.db"))).isTrue(); // the SQLite file, directories made
      assertThat(ctx.getBean(LycheeMemoryAdvisor.class).getOrder()).isEqualTo(42);
      assertThat(ctx).hasSingleBean(LycheeDocumentRetriever.class).hasSingleBean(LycheeHealthIndicator.class);
    });
  }

  @Test
  void defaultsNeedNoProperties() {
    runner.run(ctx -> {
      LycheeProperties p = ctx.getBean(LycheeProperties.class);
      assertThat(p.segmenter()).isEqualTo("semantic");
      assertThat(p.recall().maxResults()).isEqualTo(8);
      assertThat(p.recall().tokenBudget()).isEqualTo(Question.NO_TOKEN_BUDGET);
      assertThat(p.encoding().mode()).isNull();
      assertThat(p.encoding().async()).isNull();
      assertThat(ctx.getBean(Lychee.class).config().ingest().encodeMode()).isEqualTo(IngestConfig.EncodeMode.AUTO);
      assertThat(p.llm().mode()).isEqualTo(LycheeConfig.Mode.AUTO);
      assertThat(new LycheeProperties.Store(LycheeProperties.StoreType.SQLITE, null).resolvedPath())
          .isEqualTo(Path.of("lychee-data", "lychee.db"));
      assertThat(ctx.getBean(LycheeMemoryAdvisor.class).getOrder())
          .isEqualTo(org.springframework.ai.chat.client.advisor.api.Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER);
    });
  }

  /**
   * The encoding properties reach the Lychee bean: where an append's closed segment is encoded
   * shows in what the append and the flush after it report. The offline encoder runs here (no chat
   * model), so {@code auto} encodes on the caller's thread, as core's {@code AUTO} does.
   */
  @Test
  void theEncodingModeDecidesWhereAnAppendsSegmentIsEncoded() {
    ApplicationContextRunner turns = runner.withPropertyValues("lychee.segmenter=turn");
    for (String sync : List.of("lychee.encoding.mode=sync", "lychee.encoding.async=false", "lychee.encoding.mode=auto")) {
      turns.withPropertyValues(sync).run(ctx -> {
        Lychee lychee = ctx.getBean(Lychee.class);
        assertThat(lychee.config().ingest().encodeMode()).as(sync)
            .isEqualTo(sync.endsWith("auto") ? IngestConfig.EncodeMode.AUTO : IngestConfig.EncodeMode.SYNC);
        IngestResult appended = lychee.append("ann", "s1", List.of(Turn.user("Ann", "I moved to Porto."), Turn.assistant("Nice!")));
        assertThat(appended.segmentsEncoded()).as(sync).isEqualTo(1);
        assertThat(appended.segmentsQueued()).as(sync).isZero();
      });
    }
    for (String async : List.of("lychee.encoding.mode=async", "lychee.encoding.async=true",
        "lychee.encoding.mode=ASYNC,lychee.encoding.async=true")) {
      turns.withPropertyValues(async.split(",")).run(ctx -> {
        Lychee lychee = ctx.getBean(Lychee.class);
        assertThat(lychee.config().ingest().encodeMode()).as(async).isEqualTo(IngestConfig.EncodeMode.ASYNC);
        IngestResult appended = lychee.append("ann", "s1", List.of(Turn.user("Ann", "I moved to Porto."), Turn.assistant("Nice!")));
        // the append returns with its turns committed; the segment is closed and queued behind it
        assertThat(appended.turnsStored()).as(async).isEqualTo(2);
        assertThat(appended.segmentsEncoded()).as(async).isZero();
        IngestResult flushed = lychee.flush("ann", "s1");
        assertThat(appended.segmentsQueued() + flushed.segmentsQueued()).as(async).isEqualTo(1);
        assertThat(flushed.segmentsEncoded()).as(async).isZero();
        assertThat(lychee.awaitIdle("ann", Duration.ofMinutes(1))).isTrue();
      });
    }
  }

  @Test
  void invalidValuesStopTheStartWithTheirPropertyName() {
    runner.withPropertyValues("lychee.segmenter=bogus").run(ctx ->
        assertThat(ctx).getFailure().rootCause().hasMessageContaining("lychee.segmenter").hasMessageContaining("bogus"));
    runner.withPropertyValues("lychee.recall.max-results=0").run(ctx ->
        assertThat(ctx).getFailure().rootCause().hasMessageContaining("lychee.recall.max-results"));
    runner.withPropertyValues("lychee.recall.token-budget=31").run(ctx ->
        assertThat(ctx).getFailure().rootCause().hasMessageContaining("lychee.recall.token-budget must be between "
            + Question.MIN_TOKEN_BUDGET + " and " + Question.MAX_TOKEN_BUDGET));
    runner.withPropertyValues("lychee.encoding.mode=fast").run(ctx ->
        assertThat(ctx).getFailure().hasStackTraceContaining("lychee.encoding.mode"));
    runner.withPropertyValues("lychee.encoding.mode=sync", "lychee.encoding.async=true").run(ctx ->
        assertThat(ctx).getFailure().rootCause()
            .hasMessageContaining("lychee.encoding.mode=sync contradicts lychee.encoding.async=true"));
    runner.withPropertyValues("lychee.llm.mode=llm").run(ctx ->
        assertThat(ctx).getFailure().rootCause().hasMessageContaining("lychee.llm.mode=llm needs exactly one Spring AI ChatModel"));
  }

  @Test
  void springAiEmbedderWithoutAnEmbeddingModelIsAClearError() {
    new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LycheeAutoConfiguration.class))
        .withPropertyValues("lychee.store.type=memory", "lychee.embedder.type=spring-ai")
        .run(ctx -> assertThat(ctx).getFailure().rootCause()
            .hasMessageContaining("lychee.embedder.type=spring-ai needs exactly one Spring AI EmbeddingModel bean"));
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnBeans() {
    Lychee own = Lychee.builder().embedder(new HashingEmbedder()).build();
    LycheeMemoryAdvisor ownAdvisor = LycheeMemoryAdvisor.builder(own).order(7).build();
    runner.withBean(Lychee.class, () -> own).withBean(LycheeMemoryAdvisor.class, () -> ownAdvisor).run(ctx -> {
      assertThat(ctx).hasSingleBean(Lychee.class).hasSingleBean(LycheeMemoryAdvisor.class);
      assertThat(ctx.getBean(Lychee.class)).isSameAs(own);
      assertThat(ctx.getBean(LycheeMemoryAdvisor.class)).isSameAs(ownAdvisor);
    });
    runner.withPropertyValues("lychee.advisor.enabled=false").run(ctx ->
        assertThat(ctx).doesNotHaveBean(LycheeMemoryAdvisor.class).hasSingleBean(LycheeDocumentRetriever.class));
  }

  /** An append that stored the turns but could not embed them counts as a failure of stage "ingest". */
  @Test
  void theFailureMeterCountsStoredTurnsWhoseEmbeddingFailed() {
    try (Lychee refusing = Lychee.builder().embedder(new RefusingEmbedder()).build()) {
      runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).withBean(Lychee.class, () -> refusing).run(ctx -> {
        ChatModel model = prompt -> new ChatResponse(List.of(new Generation(new AssistantMessage("fine"))));
        ChatClient client = ChatClient.builder(model).defaultAdvisors(ctx.getBean(LycheeMemoryAdvisor.class)).build();
        assertThat(client.prompt().user("I like green tea.").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c1"))
            .call().content()).isEqualTo("fine");
        MeterRegistry registry = ctx.getBean(MeterRegistry.class);
        assertThat(registry.counter("lychee.advisor.failures", "stage", LycheeMemoryAdvisor.INGEST_STAGE).count()).isEqualTo(1);
        assertThat(registry.counter("lychee.advisor.turns").count()).isEqualTo(2);
      });
    }
  }

  @Test
  void healthAndMetricsFollowTheirLibraries() {
    runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health")).run(ctx ->
        assertThat(ctx).doesNotHaveBean(LycheeHealthIndicator.class).hasSingleBean(Lychee.class));
    runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(ctx ->
        assertThat(ctx.getBean(AdvisorListener.class)).isInstanceOf(MicrometerAdvisorListener.class));
    runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(ctx ->
        assertThat(ctx).doesNotHaveBean(AdvisorListener.class).hasSingleBean(LycheeMemoryAdvisor.class));
    runner.run(ctx -> assertThat(ctx.getBean(LycheeHealthIndicator.class).health().getStatus().getCode()).isEqualTo("UP"));
  }
}
