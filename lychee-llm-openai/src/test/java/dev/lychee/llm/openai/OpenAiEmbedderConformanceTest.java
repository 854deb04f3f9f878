package dev.lychee.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.conformance.BaseEmbedderTestCase;
import dev.lychee.core.conformance.ScriptedHttpServer;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The Embedder conformance suite over the OpenAI embeddings wire protocol. The local server
 * embeds each input with a deterministic bag-of-words hasher, scaled off unit length, and lists the
 * items in reverse order: the provider must re-order by {@code index} and re-normalise.
 */
class OpenAiEmbedderConformanceTest extends BaseEmbedderTestCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HashingEmbedder HASHER = new HashingEmbedder(64);
  private ScriptedHttpServer server;

  @Override
  protected Embedder newEmbedder() {
    server = ScriptedHttpServer.start().route(OpenAiEmbedderConformanceTest::embed);
    return new OpenAiEmbedder(
        OpenAiConfig.builder()
            .baseUrl(server.baseUri().resolve("/v1"))
            .embeddingModel("test-embedding")
            .embeddingDimension(64)
            .timeout(Duration.ofSeconds(20))
            .build());
  }

  @Override
  protected boolean semantic() {
    return false;
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private static ScriptedHttpServer.Response embed(ScriptedHttpServer.Request request) {
    JsonNode input;
    try {
      input = JSON.readTree(request.body()).path("input");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<float[]> vectors = new ArrayList<>();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < input.size(); i++) {
      float[] v = HASHER.embedQuery(input.get(i).asText());
      for (int j = 0; j < v.length; j++) {
        v[j] *= 2.5f;
      }
      vectors.add(v);
      order.add(0, i);
    }
    return OpenAiWire.embeddings(vectors, order);
  }
}
