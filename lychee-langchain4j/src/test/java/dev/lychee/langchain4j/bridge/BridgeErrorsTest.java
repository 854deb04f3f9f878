package dev.lychee.langchain4j.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the bridges do with failures and odd answers of the application's models. */
class BridgeErrorsTest {

  @Test
  void aProviderErrorBecomesAProviderExceptionWithoutTheKey() {
    try (ScriptedHttpServer server = ScriptedHttpServer.start()) {
      server.enqueue(ScriptedHttpServer.Response.json(400, "{\"error\": {\"message\": \"bad model\"}}"));
      OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(server.baseUri() + "/v1")
          .apiKey("sk-secret-123").modelName("gpt-stub").maxRetries(0).build();
      Langchain4jChatModel bridge = new Langchain4jChatModel(model);
      assertThat(bridge.modelId()).isEqualTo("gpt-stub");
      assertThatThrownBy(() -> bridge.chat(ChatRequest.of(List.of(ChatMessage.user("hi")), true)))
          .isInstanceOf(ProviderException.class).hasMessageContaining("chat model failed")
          .hasMessageNotContaining("sk-secret-123")
          .satisfies(e -> assertThat(((ProviderException) e).status()).isEqualTo(400)); // not retried
      assertThat(bridge.toString()).doesNotContain("sk-secret");
      // JSON mode, temperature and the token cap reach the wire
      assertThat(server.lastRequest().body().replace(" ", "")).contains("\"json_object\"").contains("\"temperature\":0.0");
    }
  }

  /**
   * A refused key or an unknown model, answered on the wire, keeps its HTTP status through
   * langchain4j's typed exceptions, so Lychee does not retry it as a transient failure.
   */
  @Test
  void theHttpStatusOfARefusalReachesTheProviderException() {
    try (ScriptedHttpServer server = ScriptedHttpServer.start()) {
      server.enqueue(ScriptedHttpServer.Response.json(401, "{\"error\": {\"message\": \"invalid key\"}}"));
      server.enqueue(ScriptedHttpServer.Response.json(404, "{\"error\": {\"message\": \"no such model\"}}"));
      Langchain4jChatModel chat = new Langchain4jChatModel(OpenAiChatModel.builder().baseUrl(server.baseUri() + "/v1")
          .apiKey("sk-secret-123").modelName("gpt-stub").maxRetries(0).build());
      Langchain4jEmbedder embedder = new Langchain4jEmbedder(OpenAiEmbeddingModel.builder()
          .baseUrl(server.baseUri() + "/v1").apiKey("sk-secret-123").modelName("embed-stub").maxRetries(0).build(),
          8, EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
      assertThatThrownBy(() -> chat.chat(ChatRequest.of(List.of(ChatMessage.user("hi")), false)))
          .isInstanceOf(ProviderException.class).hasMessageNotContaining("sk-secret-123")
          .satisfies(e -> assertThat(((ProviderException) e).status()).isEqualTo(401));
      assertThatThrownBy(() -> embedder.embedQuery("hi"))
          .isInstanceOf(ProviderException.class).hasMessageContaining("embedding model failed")
          .satisfies(e -> assertThat(((ProviderException) e).status()).isEqualTo(404));
    }
  }

  /** A chat model that throws what it is given; the test is about the bridge's translation. */
  private static dev.langchain4j.model.chat.ChatModel throwing(RuntimeException e) {
    return new dev.langchain4j.model.chat.ChatModel() {
      @Override
      public ChatResponse doChat(dev.langchain4j.model.chat.request.ChatRequest request) {
        throw e;
      }
    };
  }

  private static ProviderException failure(RuntimeException thrown) {
    Langchain4jChatModel bridge = new Langchain4jChatModel(throwing(thrown), "stub", true);
    try {
      bridge.chat(ChatRequest.of(List.of(ChatMessage.user("hi")), false));
    } catch (ProviderException e) {
      return e;
    }
    throw new AssertionError("the bridge did not throw");
  }

  @Test
  void langchain4jsExceptionTypesMapToStatusesAndAMessageIsNeverNull() {
    assertThat(failure(new AuthenticationException("key revoked")).status()).isEqualTo(401);
    assertThat(failure(new ModelNotFoundException("gpt-x")).status()).isEqualTo(404);
    assertThat(failure(new InvalidRequestException("bad")).status()).isEqualTo(400);
    assertThat(failure(new RateLimitException("slow down")).status()).isEqualTo(429);
    assertThat(failure(new InternalServerException("oops")).status()).isEqualTo(500);
    assertThat(failure(new RuntimeException("wrapped", new HttpException(403, "forbidden"))).status()).isEqualTo(403);
    assertThat(failure(new IllegalStateException("connection reset")).status()).isEqualTo(-1); // transient
    ProviderException bare = failure(new IllegalStateException());
    assertThat(bare.status()).isEqualTo(-1);
    assertThat(bare.getMessage()).isEqualTo("the application's chat model failed: IllegalStateException")
        .doesNotContain("null");
  }

  /** An embedding model that answers with fixed vectors; the test is about the bridge's checks. */
  private static EmbeddingModel answering(List<float[]> vectors) {
    return new EmbeddingModel() {
      @Override
      public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        return Response.from(vectors.stream().map(Embedding::from).toList());
      }

      @Override
      public int dimension() {
        return 2;
      }
    };
  }

  @Test
  void embeddingsAreUnitLengthAndBadAnswersAreClearErrors() {
    Langchain4jEmbedder ok = new Langchain4jEmbedder(answering(List.of(new float[] {3, 4})));
    assertThat(ok.embedQuery("x")).containsExactly(0.6f, 0.8f);
    assertThat(ok.dimension()).isEqualTo(2);
    assertThat(ok.embedDocuments(List.of())).isEmpty();
    assertThatThrownBy(() -> ok.embedQuery(" ")).isInstanceOf(IllegalArgumentException.class);

    Langchain4jEmbedder tooFew = new Langchain4jEmbedder(answering(List.of(new float[] {1, 0})));
    assertThatThrownBy(() -> tooFew.embedDocuments(List.of("a", "b")))
        .isInstanceOf(ProviderException.class).hasMessageContaining("1 vectors for 2 texts");
    Langchain4jEmbedder zero = new Langchain4jEmbedder(answering(List.of(new float[] {0, 0})));
    assertThatThrownBy(() -> zero.embedQuery("a")).isInstanceOf(ProviderException.class).hasMessageContaining("zero");
    Langchain4jEmbedder wrongSize = new Langchain4jEmbedder(answering(List.of(new float[] {1, 0, 0})), 2,
        EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
    assertThatThrownBy(() -> wrongSize.embedQuery("a")).isInstanceOf(ProviderException.class)
        .hasMessageContaining("dimension 3, expected 2");
    assertThatThrownBy(() -> new Langchain4jEmbedder(answering(List.of()), -1, EmbeddingProfile.TEXT_EMBEDDING_3_SMALL))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
