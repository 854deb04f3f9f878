package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.Turn;
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
 * scoped to another namespace sees nothing, and saves screenshots to
 * {@code target/inspector-screenshots}.
 *
 * <p>Without node, the npm project or Chromium the test is skipped, except under {@code CI=true},
 * where it fails: CI must not pass without having run it.
 */
@Timeout(240)
class InspectorBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
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
    try (Lychee memory = Lychee.builder().embedder(new OnnxEmbedder()).build();
        LycheeServer server = LycheeServer.start(ServerConfig.builder().port(0).keys(keys).build(), memory)) {
      ingestDemoThroughRest(server.baseUrl());
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
        assertThat(files.filter(p -> p.toString().endsWith(".png")).count()).isEqualTo(6);
      }
    }
  }

  private static void ingestDemoThroughRest(String base) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    for (ConversationFile.Session s : ConversationFile.demo().sessions()) {
      ObjectNode body = JSON.createObjectNode();
      ArrayNode turns = body.putArray("turns");
      for (Turn t : s.turns()) {
        turns.addObject().put("speaker", t.speaker()).put("text", t.text());
      }
      if (s.date() != null) {
        body.put("session_date", s.date().toString());
      }
      body.put("flush", true);
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/namespaces/" + NS + "/sessions/" + s.id() + "/turns"))
          .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
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
