package dev.lychee.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ChatRequest;
import dev.lychee.api.ProviderException;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-call timeouts from the environment, and a missing key for OpenAI's own endpoint. */
class OpenAiEnvironmentTimeoutTest {

  @Test
  void lycheeLlmTimeoutSetsThePerCallTimeout() {
    OpenAiConfig c = OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m", "LYCHEE_LLM_TIMEOUT", "2.5")).orElseThrow();
    assertThat(c.timeout()).isEqualTo(Duration.ofMillis(2500));
    OpenAiConfig e = OpenAiConfig.fromEnvironment(Map.of("LYCHEE_EMBEDDER", "openai:e", "LYCHEE_EMBED_TIMEOUT", "7")).orElseThrow();
    assertThat(e.timeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m")).orElseThrow().timeout())
        .isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aBadTimeoutNamesTheVariable() {
    for (String bad : List.of("soon", "0", "-3", "1e9")) {
      assertThatThrownBy(() -> OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m", "LYCHEE_LLM_TIMEOUT", bad)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LYCHEE_LLM_TIMEOUT");
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(20) // the server would answer after 30 s
  void aServerThatNeverAnswersFailsWithinTheTimeoutNamingTheEndpoint() {
    try (ScriptedHttpServer server = ScriptedHttpServer.start()) {
      server.route(r -> OpenAiWire.completion("late", 1, 1).delayedBy(Duration.ofSeconds(30)));
      OpenAiConfig c = OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m", "LYCHEE_LLM_TIMEOUT", "0.3",
          "OPENAI_API_KEY", "sk-secret-value", "OPENAI_BASE_URL", server.baseUri() + "/v1")).orElseThrow();
      OpenAiChatModel model = new OpenAiChatModel(c.toBuilder().maxRetries(0).build());
      assertThatThrownBy(() -> model.chat(ChatRequest.of(List.of(dev.lychee.api.ChatMessage.user("hi")), false)))
          .isInstanceOf(ProviderException.class)
          .hasMessageContaining("127.0.0.1:" + server.baseUri().getPort())
          .hasMessageNotContaining("sk-secret-value");
    }
  }

  @Test
  void aMissingKeyForOpenAisOwnEndpointIsReportedWithoutACall() {
    OpenAiChatModel model = new OpenAiChatModel(OpenAiConfig.builder().model("gpt-4.1-mini").apiKey("").build());
    assertThatThrownBy(() -> model.chat(ChatRequest.of(List.of(dev.lychee.api.ChatMessage.user("hi")), false)))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.status()).isEqualTo(401))
        .hasMessageContaining("OPENAI_API_KEY is not set");
  }

  /** The one missing-key check the CLI, serve and mcp print: OpenAI's own endpoint only, never a key. */
  @Test
  void aMissingKeyWarningSaysWhatWaitsAndHowToRetry() {
    String retry = "`lychee encode --pending NAMESPACE`";
    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m")).orElseThrow().missingKeyWarning(retry))
        .contains("OPENAI_API_KEY is not set: calls to api.openai.com will be refused (turns are still stored; "
            + "their segments stay pending until `lychee encode --pending NAMESPACE` runs with a key)");
    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_EMBEDDER", "openai:e")).orElseThrow().missingKeyWarning(retry))
        .hasValueSatisfying(w -> assertThat(w).contains("their vectors stay missing until"));
    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m", "LYCHEE_EMBEDDER", "openai:e")).orElseThrow()
        .missingKeyWarning(retry)).hasValueSatisfying(w -> assertThat(w).contains("their vectors stay missing and their segments pending"));
    // a key, or another endpoint (local servers often need none): nothing to say
    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m", "OPENAI_API_KEY", "sk-x")).orElseThrow()
        .missingKeyWarning(retry)).isEmpty();
    assertThat(OpenAiConfig.fromEnvironment(Map.of("LYCHEE_LLM", "openai:m", "OPENAI_BASE_URL", "http://127.0.0.1:8000/v1"))
        .orElseThrow().missingKeyWarning(retry)).isEmpty();
  }
}
