package dev.lychee.llm.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OllamaConfigTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    OllamaConfig c = OllamaConfig.builder().model("qwen2.5:7b-instruct").build();
    assertThat(c.host()).isEqualTo(URI.create("http://localhost:11434"));
    assertThat(c.temperature()).isZero();
    assertThat(c.contextSize()).isZero();
    assertThat(c.jsonMode()).isTrue();
    assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(c.maxRetries()).isEqualTo(3);
    assertThat(c.embeddingBatchSize()).isEqualTo(64);
  }

  @Test
  void invalidValuesAreRejected() {
    assertThatThrownBy(() -> OllamaConfig.builder().build()).hasMessageContaining("chat model");
    assertThatThrownBy(() -> OllamaConfig.builder().model("m").contextSize(-1).build()).hasMessageContaining("contextSize");
    assertThatThrownBy(() -> OllamaConfig.builder().model("m").initialBackoff(Duration.ZERO).build())
        .hasMessageContaining("initialBackoff");
    assertThatThrownBy(() -> OllamaConfig.builder().embeddingModel("e").embeddingBatchSize(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("embeddingBatchSize must be >= 1: 0");
  }

  @Test
  void readsTheEnvironmentTheCliDocuments() {
    OllamaConfig c =
        OllamaConfig.fromEnvironment(
                Map.of("LYCHEE_LLM", "ollama:qwen2.5:7b-instruct", "LYCHEE_EMBEDDER", "ollama:nomic-embed-text",
                    "OLLAMA_HOST", "0.0.0.0:11500"))
            .orElseThrow();
    assertThat(c.model()).isEqualTo("qwen2.5:7b-instruct");
    assertThat(c.embeddingModel()).isEqualTo("nomic-embed-text");
    assertThat(c.host()).isEqualTo(URI.create("http://0.0.0.0:11500"));
    assertThat(OllamaConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:gpt-4.1-mini"))).isEmpty();
    assertThat(OllamaConfig.parseHost("gpu-box")).isEqualTo(URI.create("http://gpu-box:11434"));
    assertThat(OllamaConfig.parseHost("https://ollama.example.com")).isEqualTo(URI.create("https://ollama.example.com"));
  }

  @Test
  void moduleBindsWhatIsConfigured() {
    Injector both =
        Guice.createInjector(new OllamaModule(OllamaConfig.builder().model("m").embeddingModel("e").embeddingDimension(4).build()));
    assertThat(both.getInstance(ChatModel.class)).isInstanceOf(OllamaChatModel.class);
    assertThat(both.getInstance(Embedder.class).dimension()).isEqualTo(4);
    Injector chatOnly = Guice.createInjector(new OllamaModule(OllamaConfig.builder().model("m").build()));
    assertThat(chatOnly.getExistingBinding(Key.get(Embedder.class))).isNull();
  }

  @Test
  void toStringAndErrorsMaskHostCredentials() {
    OllamaConfig c = OllamaConfig.builder().model("m").host("https://admin:s3cret@ollama.example.com").build();
    assertThat(c.toString()).doesNotContain("s3cret").doesNotContain("admin")
        .contains("host=https://***@ollama.example.com").contains("model=m");
    assertThatThrownBy(() -> OllamaConfig.parseHost("http://admin:s3cret@bad host"))
        .hasMessageStartingWith("OLLAMA_HOST is not a valid URL: http://***@bad host")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void moduleBuildsNoClientWhileBeingInspected() {
    OllamaModule module = new OllamaModule(OllamaConfig.builder().model("m").embeddingModel("e").build());
    assertThat(com.google.inject.spi.Elements.getElements(module)).filteredOn(e -> e instanceof com.google.inject.Binding<?>)
        .hasSize(2).allSatisfy(b -> assertThat(b).isInstanceOf(com.google.inject.spi.ProviderInstanceBinding.class));
  }
}
