package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.server.auth.ApiKey;
import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.auth.Right;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Randomised cross-namespace attempts: six namespaces, each with its own key and its own secret
 * words; random (key, namespace, route) triples. A key outside its namespace must always get 403,
 * and what a key reads inside its namespace must never show another namespace's words.
 */
@Timeout(180)
class CrossNamespaceTest {
  static final int NAMESPACES = 6;
  static final int ATTEMPTS = 240;

  @Test
  void noLeaksAcrossNamespaces() {
    List<ApiKey> keys = new ArrayList<>();
    for (int i = 0; i < NAMESPACES; i++) {
      keys.add(TestServer.key("k" + i, "secret-" + i, Right.WRITE, null, "ns" + i));
    }
    ServerConfig cfg = ServerConfig.builder().port(0).keys(ApiKeys.of(keys)).build();
    try (TestServer s = TestServer.start(cfg)) {
      for (int i = 0; i < NAMESPACES; i++) {
        for (int t = 0; t < 3; t++) {
          Http.Res r = s.http.post("/v1/namespaces/ns" + i + "/sessions/s" + t + "/turns", "secret-" + i,
              "{\"turns\":[{\"speaker\":\"Sam\",\"text\":\"Sam keeps the codeword zq" + i + "x in drawer " + t + " of the kitchen.\"}],\"flush\":true}");
          assertThat(r.status()).isEqualTo(202);
        }
      }
      Random rnd = new Random(14);
      String[] reads = {"recall", "answer", "status", "records", "sessions", "segments", "nodes", "mem0-search", "mem0-all"};
      int leaks = 0;
      int refused = 0;
      for (int a = 0; a < ATTEMPTS; a++) {
        int key = rnd.nextInt(NAMESPACES);
        int target = rnd.nextInt(NAMESPACES);
        String route = reads[rnd.nextInt(reads.length)];
        Http.Res r = call(s, route, "secret-" + key, "ns" + target);
        if (key != target) {
          assertThat(r.status()).as("%s by k%d on ns%d: %s", route, key, target, r.body()).isEqualTo(403);
          refused++;
          continue;
        }
        assertThat(r.status()).as("%s by k%d on own namespace: %s", route, key, r.body()).isEqualTo(200);
        for (int other = 0; other < NAMESPACES; other++) {
          if (other != key && (r.body().contains("zq" + other + "x") || r.body().contains("\"ns" + other + "\""))) {
            leaks++;
          }
        }
        if (route.equals("recall")) {
          for (JsonNode e : r.json().get("evidence")) {
            assertThat(e.get("text").asText()).doesNotContainPattern("zq[0-9]x(?<!zq" + key + "x)");
          }
        }
      }
      assertThat(leaks).isZero();
      assertThat(refused).isPositive();
    }
  }

  private static Http.Res call(TestServer s, String route, String key, String ns) {
    String base = "/v1/namespaces/" + ns;
    String q = "{\"question\":\"Where is the codeword kept?\",\"k\":20}";
    return switch (route) {
      case "recall" -> s.http.post(base + "/recall", key, q);
      case "answer" -> s.http.post(base + "/answer", key, q);
      case "mem0-search" -> s.http.post("/v3/memories/search/", key, "{\"query\":\"codeword\",\"filters\":{\"user_id\":\"" + ns + "\"}}");
      case "mem0-all" -> s.http.post("/v3/memories/", key, "{\"filters\":{\"user_id\":\"" + ns + "\"}}");
      default -> s.http.get(base + "/" + route, key);
    };
  }
}
