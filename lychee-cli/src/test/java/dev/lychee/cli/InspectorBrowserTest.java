package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Module;
import dev.lychee.api.Encoding;
import dev.lychee.api.ProviderException;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.encode.OfflineEncoder;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbedder;
import dev.lychee.server.LycheeServer;
import dev.lychee.server.ServerConfig;
import dev.lychee.server.auth.ApiKey;
import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.auth.NamespacePattern;
import dev.lychee.server.auth.Right;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The web inspector end to end in headless Chromium (Debian's {@code chromium}, driven by npm's
 * {@code playwright-core}; no browser is downloaded): the demo conversation goes in through the
 * REST API, then {@code inspector.e2e.mjs} walks namespace, session, segment and records, runs a
 * recall and checks the plan, the channels' candidates and the final evidence, checks that a key
 * scoped to another namespace sees nothing, charts an evaluation result, retries a segment an encoder
 * outage left pending, and saves screenshots to
 * {@code target/inspector-screenshots}.
 *
 * <p>Without node, the npm project or Chromium the test is skipped, except under {@code CI=true},
 * where it fails: CI must not pass without having run it.
 */
@Timeout(240)
class InspectorBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String NS = "lychee-demo";
  private static final String KEY = "demo-key-0123456789abcdef";
  private static final String OTHER = "other-key-0123456789abcdef";

  @Test
  void walksTheInspectorInChromium() throws Exception {
    Path js = Path.of("target", "js");
    Path script = js.resolve("inspector.e2e.mjs");
    Path chromium = Path.of(System.getenv().getOrDefault("LYCHEE_CHROMIUM", "/usr/bin/chromium"));
    requirePresent(Files.isDirectory(js.resolve("node_modules").resolve("playwright-core")) && Files.exists(script),
        "the npm project in target/js is not installed (mvn runs `npm ci` there unless tests are skipped)");
    requirePresent(Files.isExecutable(chromium), chromium + " is missing (apt-get install chromium)");

    ApiKeys keys = ApiKeys.of(List.of(
        new ApiKey("demo", ApiKeys.sha256(KEY), List.of(new NamespacePattern(NS)), Right.WRITE, NS),
        new ApiKey("other", ApiKeys.sha256(OTHER), List.of(new NamespacePattern("elsewhere")), Right.WRITE, "elsewhere")));
    Path eval = Files.createTempFile("lychee-eval", ".json");
    eval.toFile().deleteOnExit();
    Files.writeString(eval, "{\"dataset\":\"dev\",\"systems\":{\"lychee\":{\"recall_tokens\":{\"500\":0.76,"
        + "\"1000\":0.84,\"2000\":0.87}},\"bm25\":{\"recall_tokens\":{\"500\":0.53,\"1000\":0.61,\"2000\":0.67}}}}");
    OutageEncoder encoder = new OutageEncoder(new OfflineEncoder(LycheeConfig.defaults().encoding()));
    Module outage = b -> b.bind(Encoder.class).toInstance(encoder);
    try (Lychee memory = Lychee.builder().embedder(new OnnxEmbedder()).module(outage).build();
        LycheeServer server = LycheeServer.start(ServerConfig.builder().port(0).keys(keys).evalJson(eval).build(), memory)) {
      ingestDemoThroughRest(server.baseUrl());
      // one more session while the encoder is down: its segment stays pending for the retry button
      encoder.down = true;
      post(server.baseUrl(), "outage", List.of(Turn.user("Maya", "The new bakery on Elm Street opens at seven.")), null);
      encoder.down = false;
      assertThat(memory.status(NS).segments(SegmentState.PENDING)).as("the outage left a pending segment").isPositive();
      Path shots = Path.of("target", "inspector-screenshots");
      Process node;
      try {
        node = new ProcessBuilder("node", script.toString(), server.baseUrl(), NS, KEY, OTHER, shots.toString())
            .redirectErrorStream(true).start();
      } catch (IOException e) {
        requirePresent(false, "node cannot be started: " + e.getMessage());
        return;
      }
      boolean done = node.waitFor(180, TimeUnit.SECONDS);
      String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!done) {
        node.destroyForcibly();
      }
      assertThat(done).as("the browser walk finished: " + output).isTrue();
      assertThat(node.exitValue()).as(output).isZero();
      assertThat(output).contains("all checks passed");
      try (var files = Files.list(shots)) {
        assertThat(files.filter(p -> p.toString().endsWith(".png")).count()).isEqualTo(8);
      }
    }
  }

  private static void ingestDemoThroughRest(String base) throws Exception {
    for (ConversationFile.Session s : ConversationFile.demo().sessions()) {
      post(base, s.id(), s.turns(), s.date() == null ? null : s.date().toString());
    }
  }

  private static void post(String base, String session, List<Turn> turns, String date) throws Exception {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode array = body.putArray("turns");
    for (Turn t : turns) {
      array.addObject().put("speaker", t.speaker()).put("text", t.text());
    }
    if (date != null) {
      body.put("session_date", date);
    }
    body.put("flush", true);
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/namespaces/" + NS + "/sessions/" + session + "/turns"))
        .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
  }

  /** The offline encoder behind a switch: while {@code down}, every call fails as an unreachable model would. */
  private static final class OutageEncoder implements Encoder {
    private final Encoder delegate;
    volatile boolean down;

    OutageEncoder(Encoder delegate) {
      this.delegate = delegate;
    }

    @Override
    public Encoding encode(Segment segment, ReferenceContext context) {
      if (down) {
        throw new ProviderException("http://127.0.0.1:9/v1", 400, "model server refused the request", null);
      }
      return delegate.encode(segment, context);
    }

    @Override
    public String name() {
      return delegate.name();
    }
  }

  private static void requirePresent(boolean present, String what) {
    if (!present) {
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError("the browser test cannot run under CI: " + what);
      }
      Assumptions.abort("skipped: " + what);
    }
  }
}
