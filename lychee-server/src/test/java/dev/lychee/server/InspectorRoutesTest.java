package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The inspector's page, assets, traced recall and evaluation route on a running server. */
@Timeout(60)
class InspectorRoutesTest {
  @TempDir Path dir;

  private static final String TURNS = "{\"turns\":["
      + "{\"speaker\":\"Theo\",\"text\":\"I finally repaired the old bicycle from my grandfather's garage.\"},"
      + "{\"speaker\":\"Maya\",\"text\":\"Is it the green racing bike from the seventies?\"},"
      + "{\"speaker\":\"Theo\",\"text\":\"Yes, a green Peugeot with new tyres.\"},"
      + "{\"speaker\":\"Maya\",\"text\":\"My cat Pepper hates the noise of the pump. <script>alert(1)</script>\"}],\"flush\":true}";

  @Test
  void thePageAndItsAssetsAreServedWithAStrictContentPolicy() {
    try (TestServer s = TestServer.start()) {
      Http.Res page = s.http.get("/", null);
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.contentType()).startsWith("text/html");
      assertThat(page.body()).contains("<script src=\"/inspector/app.js\">");
      String csp = page.raw().headers().firstValue("Content-Security-Policy").orElse("");
      assertThat(csp).contains("default-src 'none'").contains("script-src 'self'").contains("connect-src 'self'");
      assertThat(page.raw().headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      Http.Res js = s.http.get("/inspector/app.js", null);
      assertThat(js.status()).isEqualTo(200);
      assertThat(js.contentType()).startsWith("text/javascript");
      // the page never inserts data as markup
      assertThat(js.body()).doesNotContain("innerHTML").doesNotContain("insertAdjacentHTML");
      assertThat(s.http.get("/inspector/app.css", null).contentType()).startsWith("text/css");
      Http.Res missing = s.http.get("/inspector/secrets.txt", null);
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.code()).isEqualTo("asset-not-found");
      assertThat(s.http.get("/inspector/..%2Fopenapi.json", null).status()).isEqualTo(404);
    }
  }

  @Test
  void theTraceShowsEveryStageAndKeepsToTheKeysScope() {
    try (TestServer s = TestServer.start()) {
      assertThat(s.http.post("/v1/namespaces/alice/sessions/s1/turns", TestServer.ALICE_WRITE, TURNS).status()).isEqualTo(202);
      String q = "{\"question\":\"What bicycle did Theo repair?\",\"k\":5}";
      Http.Res r = s.http.post("/v1/namespaces/alice/recall/trace", TestServer.ALICE_READ, q);
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      JsonNode t = r.json();
      assertThat(t.path("recall").path("evidence").size()).isBetween(1, 5);
      assertThat(t.path("recall").path("plan").path("routes").size()).isPositive();
      assertThat(t.path("routes").size()).isEqualTo(t.path("recall").path("plan").path("routes").size());
      Set<String> channels = new HashSet<>();
      t.path("routes").forEach(route -> route.path("channels").forEach(c -> channels.add(c.path("channel").asText())));
      assertThat(channels).hasSizeGreaterThanOrEqualTo(3);
      assertThat(t.path("fused").size()).isPositive();
      assertThat(t.path("reranked").get(0).path("features").has("similarity")).isTrue();
      // the selector's picks are the final evidence, in order
      assertThat(t.path("selection").size()).isEqualTo(t.path("recall").path("evidence").size());
      for (int i = 0; i < t.path("selection").size(); i++) {
        assertThat(t.path("selection").get(i).path("id").asText())
            .isEqualTo(t.path("recall").path("evidence").get(i).path("id").asText());
      }
      // scope: no key, another namespace's key
      assertThat(s.http.post("/v1/namespaces/alice/recall/trace", null, q).status()).isEqualTo(401);
      Http.Res bob = s.http.post("/v1/namespaces/alice/recall/trace", TestServer.BOB_WRITE, q);
      assertThat(bob.status()).isEqualTo(403);
      assertThat(bob.body()).doesNotContain("bicycle");
      // markup in a turn comes back as text in JSON, never interpreted by the server
      Http.Res turns = s.http.get("/v1/namespaces/alice/sessions/s1/turns", TestServer.ALICE_READ);
      assertThat(turns.json().toString()).contains("<script>alert(1)</script>");
    }
  }

  @Test
  void theEvaluationRouteServesTheGivenFileOrSaysThereIsNone() throws Exception {
    try (TestServer s = TestServer.start(ServerConfig.builder().port(0).keys(TestServer.keys()).build())) {
      Http.Res none = s.http.get("/v1/inspector/eval", TestServer.ALICE_READ);
      assertThat(none.status()).isEqualTo(404);
      assertThat(none.code()).isEqualTo("no-evaluation");
      assertThat(s.http.get("/v1/inspector/eval", null).status()).isEqualTo(401);
    }
    Path eval = dir.resolve("eval.json");
    Files.writeString(eval, "{\"dataset\":\"dev\",\"systems\":{\"lychee\":{\"recall_tokens\":{\"500\":0.7,\"1000\":0.8}}}}");
    try (TestServer s = TestServer.start(ServerConfig.builder().port(0).keys(TestServer.keys()).evalJson(eval).build())) {
      Http.Res r = s.http.get("/v1/inspector/eval", TestServer.ALICE_READ);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.json().path("systems").path("lychee").path("recall_tokens").path("1000").asDouble()).isEqualTo(0.8);
    }
  }
}
