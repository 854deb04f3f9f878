package dev.lychee.llm.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-call timeouts from the environment. */
class OllamaEnvironmentTimeoutTest {

  @Test
  void lycheeLlmTimeoutSetsThePerCallTimeoutAndBadValuesNameTheVariable() {
    assertThat(OllamaConfig.fromEnvironment(Map.of("LYCHEE_LLM", "ollama:qwen2.5:7b", "LYCHEE_LLM_TIMEOUT", "4"))
        .orElseThrow().timeout()).isEqualTo(Duration.ofSeconds(4));
    assertThat(OllamaConfig.fromEnvironment(Map.of("LYCHEE_EMBEDDER", "ollama:nomic-embed-text", "LYCHEE_EMBED_TIMEOUT", "0.5"))
        .orElseThrow().timeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(OllamaConfig.fromEnvironment(Map.of("LYCHEE_LLM", "ollama:m")).orElseThrow().timeout())
        .isEqualTo(Duration.ofSeconds(120));
    assertThatThrownBy(() -> OllamaConfig.fromEnvironment(Map.of("LYCHEE_LLM", "ollama:m", "LYCHEE_LLM_TIMEOUT", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LYCHEE_LLM_TIMEOUT");
  }
}
