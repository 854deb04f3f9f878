package dev.lychee.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpenAiConfigTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    OpenAiConfig c = OpenAiConfig.builder().model("gpt-4.1-mini").build();
    assertThat(c.baseUrl()).isEqualTo(URI.create("https://api.openai.com/v1"));
    assertThat(c.temperature()).isZero();
    assertThat(c.maxTokens()).isZero();
    assertThat(c.jsonMode()).isTrue();
    assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.maxRetries()).isEqualTo(3);
    assertThat(c.initialBackoff()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.hasEmbeddingModel()).isFalse();
  }

  @Test
  void invalidValuesAreRejectedOnce() {
    assertThatThrownBy(() -> OpenAiConfig.builder().build()).hasMessageContaining("chat model");
    assertThatThrownBy(() -> OpenAiConfig.builder().model("m").temperature(-1).build()).hasMessageContaining("temperature");
    assertThatThrownBy(() -> OpenAiConfig.builder().model("m").maxRetries(-1).build()).hasMessageContaining("maxRetries");
    assertThatThrownBy(() -> OpenAiConfig.builder().model("m").timeout(Duration.ZERO).build()).hasMessageContaining("timeout");
    assertThatThrownBy(() -> OpenAiConfig.builder().model("m").baseUrl("ftp://x").build()).hasMessageContaining("http");
  }

  @Test
  void readsTheEnvironmentTheCliDocuments() {
    Optional<OpenAiConfig> c =
        OpenAiConfig.fromEnvironment(
            Map.of(
                "LYCHEE_LLM", "openai:qwen2.5-7b-instruct",
                "LYCHEE_EMBEDDER", "openai:nomic-embed-text",
                "OPENAI_API_KEY", "sk-abc",
                "OPENAI_BASE_URL", "http://127.0.0.1:8000/v1"));
    assertThat(c).isPresent();
    assertThat(c.get().model()).isEqualTo("qwen2.5-7b-instruct");
    assertThat(c.get().embeddingModel()).isEqualTo("nomic-embed-text");
    assertThat(c.get().apiKey()).isEqualTo("sk-abc");
    assertThat(c.get().baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8000/v1"));

    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "ollama:qwen2.5:7b"))).isEmpty();
    assertThatThrownBy(() -> OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:")))
        .hasMessageContaining("openai:<model>");
  }

  @Test
  void retryAfterIsReadAsSecondsOrHttpDate() {
    Clock clock = Clock.fixed(Instant.parse("2015-10-21T07:27:50Z"), ZoneOffset.UTC);
    assertThat(Backoff.parseRetryAfter("1", clock)).contains(Duration.ofSeconds(1));
    assertThat(Backoff.parseRetryAfter(" 120 ", clock)).contains(Duration.ofSeconds(120));
    assertThat(Backoff.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", clock)).contains(Duration.ofSeconds(10));
    assertThat(Backoff.parseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", clock)).contains(Duration.ZERO);
    assertThat(Backoff.parseRetryAfter("soon", clock)).isEmpty();
    assertThat(Backoff.parseRetryAfter("", clock)).isEmpty();
  }

  @Test
  void backoffDoublesAndIsCapped() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(350), Clock.systemUTC());
    assertThat(b.waitAfter(1, Optional.empty())).isEqualTo(Duration.ofMillis(100));
    assertThat(b.waitAfter(2, Optional.empty())).isEqualTo(Duration.ofMillis(200));
    assertThat(b.waitAfter(3, Optional.empty())).isEqualTo(Duration.ofMillis(350));
    assertThat(b.waitAfter(60, Optional.empty())).isEqualTo(Duration.ofMillis(350));
    // a server asking for an hour gets the cap
    assertThat(b.waitAfterHeader(1, Optional.of("3600"))).isEqualTo(Duration.ofMillis(350));
    assertThat(b.waitAfterHeader(1, Optional.of("0"))).isEqualTo(Duration.ZERO);
  }

  @Test
  void moduleBindsChatModelAndEmbedderWhenConfigured() {
    Injector both =
        Guice.createInjector(
            new OpenAiModule(OpenAiConfig.builder().model("m").embeddingModel("e").embeddingDimension(8).build()));
    assertThat(both.getInstance(ChatModel.class)).isInstanceOf(OpenAiChatModel.class);
    assertThat(both.getInstance(ChatModel.class).modelId()).isEqualTo("m");
    assertThat(both.getInstance(Embedder.class)).isInstanceOf(OpenAiEmbedder.class);
    assertThat(both.getInstance(Embedder.class).dimension()).isEqualTo(8);

    Injector chatOnly = Guice.createInjector(new OpenAiModule(OpenAiConfig.builder().model("m").build()));
    assertThat(chatOnly.getExistingBinding(Key.get(Embedder.class))).isNull();
  }
}
