package dev.lychee.llm.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.ProviderException;
import dev.lychee.core.conformance.ScriptedHttpServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OllamaEmbedderTest {
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

  private OllamaConfig.Builder config() {
    return OllamaConfig.builder()
        .host(server.baseUri())
        .embeddingModel("nomic-embed-text")
        .maxRetries(2)
        .initialBackoff(Duration.ofMillis(1))
        .timeout(Duration.ofSeconds(10));
  }

  private static double norm(float[] x) {
    double s = 0;
    for (float f : x) {
      s += (double) f * f;
    }
    return Math.sqrt(s);
  }

  @Test
  void aBatchComesBackInInputOrderAtUnitLengthWithTheRightDimension() throws Exception {
    server.enqueue(OllamaWire.embed(List.of(new double[] {3, 4, 0, 0}, new double[] {0, 0, 0, 9}, new double[] {1, 1, 1, 1})));
    OllamaEmbedder embedder = new OllamaEmbedder(config().build());

    List<float[]> out = embedder.embedDocuments(List.of("alpha", "beta", "gamma"));

    assertThat(out).hasSize(3);
    assertThat(out.get(0)).containsExactly(new float[] {0.6f, 0.8f, 0f, 0f}, within(1e-6f));
    assertThat(out.get(1)).containsExactly(new float[] {0f, 0f, 0f, 1f}, within(1e-6f));
    assertThat(out.get(2)).containsExactly(new float[] {0.5f, 0.5f, 0.5f, 0.5f}, within(1e-6f));
    for (float[] v : out) {
      assertThat(norm(v)).isCloseTo(1.0, within(1e-4));
    }
    assertThat(embedder.dimension()).isEqualTo(4);
    ScriptedHttpServer.Request r = server.lastRequest();
    assertThat(r.path()).isEqualTo("/api/embed");
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.path("model").asText()).isEqualTo("nomic-embed-text");
    assertThat(body.path("input")).extracting(JsonNode::asText).containsExactly("alpha", "beta", "gamma");
  }

  @Test
  void dimensionIsLearnedWithAProbeWhenNotConfigured() {
    server.enqueue(OllamaWire.embed(List.of(new double[] {1, 2, 3, 4, 5})));
    assertThat(new OllamaEmbedder(config().build()).dimension()).isEqualTo(5);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aWrongCountOrDimensionIsAProviderException() {
    server.enqueue(OllamaWire.embed(List.of(new double[] {1, 0})));
    OllamaEmbedder embedder = new OllamaEmbedder(config().build());
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("a", "b")))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("1 embeddings for 2 texts");

    server.enqueue(OllamaWire.embed(List.of(new double[] {1, 0})));
    OllamaEmbedder fixed = new OllamaEmbedder(config().embeddingDimension(768).build());
    assertThatThrownBy(() -> fixed.embedQuery("q")).hasMessageContaining("expected 768");
  }

  @Test
  void anEmbeddingModelThatIsNotPulledSaysWhichPullToRun() {
    server.enqueue(OllamaWire.error(404, "model \"nomic-embed-text\" not found, try pulling it first"));
    OllamaEmbedder embedder = new OllamaEmbedder(config().build());
    assertThatThrownBy(() -> embedder.embedQuery("q"))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("run `ollama pull nomic-embed-text`");
  }

  @Test
  void overloadIsRetried() {
    server.enqueue(OllamaWire.error(503, "server busy, please try again.  maximum pending requests exceeded"));
    server.enqueue(OllamaWire.embed(List.of(new double[] {0, 2})));
    assertThat(new OllamaEmbedder(config().build()).embedQuery("q")).containsExactly(0f, 1f);
    assertThat(server.requests()).hasSize(2);
  }

  /** Answers each embed request with one vector per text, after {@code perText} for each of them. */
  private void answerEveryBatch(Duration perText) {
    server.route(r -> {
      int n = inputs(r).size();
      List<double[]> vectors = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        vectors.add(new double[] {1, i});
      }
      return OllamaWire.embed(vectors).delayedBy(perText.multipliedBy(n));
    });
  }

  private static JsonNode inputs(ScriptedHttpServer.Request r) {
    try {
      return JSON.readTree(r.body()).path("input");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A call of many texts (a backfill of a long session) is sent in requests of embeddingBatchSize texts. */
  @Test
  void manyTextsGoInRequestsOfTheBatchSize() {
    answerEveryBatch(Duration.ZERO);
    OllamaEmbedder embedder = new OllamaEmbedder(config().embeddingBatchSize(128).build());
    List<String> texts = java.util.stream.IntStream.range(0, 300).mapToObj(i -> "text " + i).toList();

    List<float[]> out = embedder.embedDocuments(texts);

    assertThat(out).hasSize(300);
    List<ScriptedHttpServer.Request> requests = server.requestsTo("/api/embed");
    assertThat(requests).extracting(r -> inputs(r).size()).containsExactly(128, 128, 44);
    // in input order: the first text of the second request is text 128
    assertThat(inputs(requests.get(1)).get(0).asText()).isEqualTo("text 128");
  }

  /**
   * A server whose time grows with the batch: the timeout covers one request of the batch size,
   * not all the texts in one request (as before, with every call one request).
   */
  @Test
  void theTimeoutIsPerRequestSoAnyNumberOfTextsFits() {
    answerEveryBatch(Duration.ofMillis(25));
    List<String> texts = java.util.stream.IntStream.range(0, 120).mapToObj(i -> "text " + i).toList();
    OllamaEmbedder batched = new OllamaEmbedder(config().maxRetries(0).timeout(Duration.ofSeconds(2)).embeddingBatchSize(20).build());
    assertThat(batched.embedDocuments(texts)).hasSize(120);
    assertThat(server.requestsTo("/api/embed")).hasSize(6);

    OllamaEmbedder whole = new OllamaEmbedder(config().maxRetries(0).timeout(Duration.ofSeconds(2)).embeddingBatchSize(120).build());
    assertThatThrownBy(() -> whole.embedDocuments(texts)).isInstanceOf(ProviderException.class).hasMessageContaining("timed out");
  }

  @Test
  void blankTextIsRejectedBeforeAnyCall() {
    OllamaEmbedder embedder = new OllamaEmbedder(config().build());
    assertThatThrownBy(() -> embedder.embedDocuments(List.of("fine", ""))).isInstanceOf(IllegalArgumentException.class);
    assertThat(embedder.embedDocuments(List.of())).isEmpty();
    assertThat(server.requests()).isEmpty();
  }
}
