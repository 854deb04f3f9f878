package dev.lychee.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.ProviderException;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenAiEmbedderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private ScriptedHttpServer server;

  @BeforeEach
  void start() {
    server = ScriptedHttpServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private OpenAiConfig.Builder config() {
    return OpenAiConfig.builder()
        .baseUrl(server.baseUri().resolve("/v1"))
        .embeddingModel("text-embedding-3-small")
        .maxRetries(2)
        .initialBackoff(Duration.ofMillis(1))
        .timeout(Duration.ofSeconds(10));
  }

  private static float[] v(float... values) {
    return values;
  }

  private static double norm(float[] x) {
    double s = 0;
    for (float f : x) {
      s += (double) f * f;
    }
    return Math.sqrt(s);
  }

  private static JsonNode body(ScriptedHttpServer.Request r) throws Exception {
    return JSON.readTree(r.body());
  }

  @Test
  void aBatchComesBackInInputOrderAtUnitLengthWithTheRightDimension() throws Exception {
    List<float[]> vectors = List.of(v(3, 4, 0), v(0, 0, 2), v(1, 1, 1));
    // the server answers out of order; the index field decides
    server.enqueue(OpenAiWire.embeddings(vectors, List.of(2, 0, 1)));
    OpenAiEmbedder embedder = new OpenAiEmbedder(config().build());

    List<float[]> out = embedder.embedDocuments(List.of("alpha", "beta", "gamma"));

    assertThat(out).hasSize(3);
    assertThat(out.get(0)).containsExactly(new float[] {0.6f, 0.8f, 0f}, within(1e-6f));
    assertThat(out.get(1)).containsExactly(new float[] {0f, 0f, 1f}, within(1e-6f));
    for (float[] x : out) {
      assertThat(norm(x)).isCloseTo(1.0, within(1e-4));
      assertThat(x).hasSize(3);
    }
    assertThat(embedder.dimension()).isEqualTo(3);
    JsonNode sent = body(server.lastRequest());
    assertThat(server.lastRequest().path()).isEqualTo("/v1/embeddings");
    assertThat(sent.path("model").asText()).isEqualTo("text-embedding-3-small");
    assertThat(sent.path("encoding_format").asText()).isEqualTo("float");
    assertThat(sent.path("input")).extracting(JsonNode::asText).containsExactly("alpha", "beta", "gamma");
  }

  @Test
  void largeInputsAreSentInBatches() throws Exception {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      texts.add("text " + i);
    }
    server.route(
        request -> {
          try {
            int n = JSON.readTree(request.body()).path("input").size();
            List<float[]> vs = new ArrayList<>();
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < n; i++) {
              vs.add(v(1, i + 1));
              order.add(i);
            }
            return OpenAiWire.embeddings(vs, order);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    OpenAiEmbedder embedder = new OpenAiEmbedder(config().embeddingBatchSize(2).build());

    List<float[]> out = embedder.embedDocuments(texts);

    assertThat(out).hasSize(5);
    assertThat(server.requests()).hasSize(3);
    assertThat(body(server.requests().get(2)).path("input")).extracting(JsonNode::asText).containsExactly("text 4");
    // position inside each batch decides the vector: texts 0, 2, 4 all got (1,1) normalised
    assertThat(out.get(4)).containsExactly(out.get(0));
  }

  @Test
  void aWrongDimensionIsAProviderException() {
    server.enqueue(OpenAiWire.embeddings(List.of(v(1, 0, 0)), List.of(0)));
    OpenAiEmbedder embedder = new OpenAiEmbedder(config().embeddingDimension(1536).build());
    assertThatThrownBy(() -> embedder.embedQuery("q"))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("3-dimensional")
        .hasMessageContaining("1536");
  }

  @Test
  void aMissingItemIsAProviderException() {
    server.enqueue(OpenAiWire.embeddings(List.of(v(1, 0), v(0, 1)), List.of(0)));
    OpenAiEmbedder embedder = new OpenAiEmbedder(config().build());
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("a", "b")))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("1 embeddings for 2 texts");
  }

  @Test
  void rateLimitsAreRetriedForEmbeddingsToo() {
    server.enqueue(OpenAiWire.error(429, "slow down").withHeader("Retry-After", "0"));
    server.enqueue(OpenAiWire.embeddings(List.of(v(0, 5)), List.of(0)));
    float[] q = new OpenAiEmbedder(config().build()).embedQuery("q");
    assertThat(q).containsExactly(0f, 1f);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void serverErrorsUntilRetriesRunOutNameTheEmbeddingsEndpoint() {
    for (int i = 0; i < 3; i++) {
      server.enqueue(OpenAiWire.error(500, "down"));
    }
    OpenAiEmbedder embedder = new OpenAiEmbedder(config().build());
    assertThatThrownBy(() -> embedder.embedQuery("q"))
        .isInstanceOfSatisfying(
            ProviderException.class,
            e -> {
              assertThat(e.status()).isEqualTo(500);
              assertThat(e.endpoint()).isEqualTo(server.baseUri() + "/v1/embeddings");
            })
        .hasMessageContaining("3 attempts");
  }

  @Test
  void blankTextIsRejectedBeforeAnyCall() {
    OpenAiEmbedder embedder = new OpenAiEmbedder(config().build());
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("ok", " "))).isInstanceOf(IllegalArgumentException.class);
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void emptyInputMakesNoCall() {
    assertThat(new OpenAiEmbedder(config().build()).embedDocuments(List.of())).isEmpty();
    assertThat(server.requests()).isEmpty();
  }
}
