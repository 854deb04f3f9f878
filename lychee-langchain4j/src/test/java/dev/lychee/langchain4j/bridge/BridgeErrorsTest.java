package dev.lychee.langchain4j.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
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
          .hasMessageNotContaining("sk-secret-123");
      assertThat(bridge.toString()).doesNotContain("sk-secret");
      // JSON mode, temperature and the token cap reach the wire
      assertThat(server.lastRequest().body().replace(" ", "")).contains("\"json_object\"").contains("\"temperature\":0.0");
    }
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
