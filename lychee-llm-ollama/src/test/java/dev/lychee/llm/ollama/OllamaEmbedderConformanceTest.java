package dev.lychee.llm.ollama;

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
 * The Embedder conformance suite over Ollama's {@code /api/embed} wire protocol. The local server
 * embeds each input with a deterministic bag-of-words hasher, scaled off unit length, so the
 * provider's re-normalisation is exercised.
 */
class OllamaEmbedderConformanceTest extends BaseEmbedderTestCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HashingEmbedder HASHER = new HashingEmbedder(48);
  private ScriptedHttpServer server;

  @Override
  protected Embedder newEmbedder() {
    server = ScriptedHttpServer.start().route(OllamaEmbedderConformanceTest::embed);
    return new OllamaEmbedder(
        OllamaConfig.builder()
            .host(server.baseUri())
            .embeddingModel("test-embed")
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
    List<double[]> vectors = new ArrayList<>();
    for (JsonNode text : input) {
      float[] v = HASHER.embedQuery(text.asText());
      double[] d = new double[v.length];
      for (int j = 0; j < v.length; j++) {
        d[j] = v[j] * 0.4;
      }
      vectors.add(d);
    }
    return OllamaWire.embed(vectors);
  }
}
