package dev.lychee.spring.ai.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.OpenAiEmbeddingModel;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.retry.NonTransientAiException;
import org.springframework.ai.retry.TransientAiException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;

/** The HTTP status of a failure of the application's Spring AI model reaches Lychee's retry rule. */
class SpringAiBridgeErrorsTest {

  /** A refused key and an unknown model, answered on the wire to Spring AI's OpenAI client. */
  @Test
  void theHttpStatusOfARefusalReachesTheProviderException() {
    try (ScriptedHttpServer server = ScriptedHttpServer.start()) {
      server.enqueue(ScriptedHttpServer.Response.json(401, "{\"error\": {\"message\": \"invalid key\"}}"));
      server.enqueue(ScriptedHttpServer.Response.json(404, "{\"error\": {\"message\": \"no such model\"}}"));
      OpenAiApi api = OpenAiApi.builder().baseUrl(server.baseUri().toString()).apiKey("sk-secret-123").build();
      SpringAiChatModel chat = new SpringAiChatModel(OpenAiChatModel.builder().openAiApi(api)
          .defaultOptions(OpenAiChatOptions.builder().model("gpt-stub").build()).build());
      SpringAiEmbedder embedder = new SpringAiEmbedder(new OpenAiEmbeddingModel(api), "embed-stub", 8,
          EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
      assertThatThrownBy(() -> chat.chat(ChatRequest.of(List.of(ChatMessage.user("hi")), false)))
          .isInstanceOf(ProviderException.class).hasMessageContaining("chat model failed")
          .hasMessageNotContaining("sk-secret-123")
          .satisfies(e -> assertThat(((ProviderException) e).status()).isEqualTo(401));
      assertThatThrownBy(() -> embedder.embedQuery("hi"))
          .isInstanceOf(ProviderException.class).hasMessageContaining("embedding model failed")
          .satisfies(e -> assertThat(((ProviderException) e).status()).isEqualTo(404));
    }
  }

  private static ProviderException failure(RuntimeException thrown) {
    SpringAiChatModel bridge = new SpringAiChatModel(prompt -> {
      throw thrown;
    }, "stub");
    try {
      bridge.chat(ChatRequest.of(List.of(ChatMessage.user("hi")), false));
    } catch (ProviderException e) {
      return e;
    }
    throw new AssertionError("the bridge did not throw");
  }

  @Test
  void springAisExceptionTypesMapToStatusesAndAMessageIsNeverNull() {
    assertThat(failure(new NonTransientAiException("403 - {\"error\": \"forbidden\"}")).status()).isEqualTo(403);
    assertThat(failure(new NonTransientAiException("tool call refused")).status()).isEqualTo(400);
    assertThat(failure(new TransientAiException("503 - busy")).status()).isEqualTo(503);
    assertThat(failure(new TransientAiException("I/O error on POST")).status()).isEqualTo(-1);
    assertThat(failure(new IllegalStateException("wrapped", HttpClientErrorException.create(HttpStatus.UNAUTHORIZED,
        "Unauthorized", HttpHeaders.EMPTY, new byte[0], null))).status()).isEqualTo(401);
    assertThat(failure(new IllegalStateException("connection reset")).status()).isEqualTo(-1); // transient
    ProviderException bare = failure(new IllegalStateException());
    assertThat(bare.status()).isEqualTo(-1);
    assertThat(bare.getMessage()).isEqualTo("the application's chat model failed: IllegalStateException")
        .doesNotContain("null");
  }
}
