package dev.lychee.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Binding;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.spi.Elements;
import com.google.inject.spi.ProviderInstanceBinding;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import java.net.URI;
import java.time.Duration;
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
  void toStringNeverShowsTheKeyOrUrlCredentials() {
    OpenAiConfig c = OpenAiConfig.builder().apiKey("sk-secret-123456").model("m")
        .baseUrl("https://proxyuser:proxypass@llm.example/v1?api-key=abcdef&x=1").build();
    assertThat(c.toString()).doesNotContain("sk-secret-123456").doesNotContain("proxypass")
        .doesNotContain("proxyuser").doesNotContain("abcdef")
        .contains("apiKey=***").contains("https://***@llm.example/v1?api-key=***&x=1").contains("model=m");
    assertThat(OpenAiConfig.builder().model("m").build().toString()).contains("apiKey=(none)");
  }

  @Test
  void aMalformedBaseUrlIsReportedWithoutItsCredentials() {
    assertThatThrownBy(() -> OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m",
        "OPENAI_BASE_URL", "http://u:topsecret@bad host/v1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("OPENAI_BASE_URL is not a valid URL: http://***@bad host/v1")
        .hasMessageNotContaining("topsecret");
  }

  @Test
  void moduleDeclaresProvidersAndBuildsEachClientOncePerInjector() {
    OpenAiModule module = new OpenAiModule(OpenAiConfig.builder().model("m").embeddingModel("e").build());
    // configure() declares bindings only: no instance is made while the module is inspected
    assertThat(Elements.getElements(module)).filteredOn(e -> e instanceof Binding<?>)
        .hasSize(2).allSatisfy(b -> assertThat(b).isInstanceOf(ProviderInstanceBinding.class));
    Injector injector = Guice.createInjector(module);
    assertThat(injector.getInstance(ChatModel.class)).isSameAs(injector.getInstance(ChatModel.class));
    assertThat(injector.getInstance(Embedder.class)).isSameAs(injector.getInstance(Embedder.class));
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
