package dev.lychee.server;

import static dev.lychee.server.RestRoutesTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad input on a real server: every answer is a problem document with a stable code, never a stack trace. */
@Timeout(120)
class BadInputTest {
  static TestServer s;
  static final String K = TestServer.ADMIN;
  /** Sample paths of every mounted route that reads a JSON body (so a new route is covered without editing this test). */
  static java.util.List<String> jsonRoutes() {
    java.util.Set<String> reading = s.server.routes().stream().filter(dev.lychee.server.http.RouteSpec::jsonBody)
        .map(r -> r.method().name() + " " + r.path()).collect(java.util.stream.Collectors.toSet());
    java.util.List<String> paths = RouteSamples.all().stream().filter(x -> reading.contains(x.method() + " " + x.template()))
        .map(RouteSamples.Sample::path).toList();
    assertThat(paths).hasSize(reading.size()).contains("/v1/namespaces/alice/recall/trace", "/v3/memories/add/");
    return paths;
  }

  @BeforeAll
  static void start() {
    s = TestServer.start();
    assertThat(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, RouteSamples.TURNS).status()).isEqualTo(202);
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  @Test
  void malformedJsonOnEveryJsonRoute() {
    for (String path : jsonRoutes()) {
      assertProblem(s.http.post(path, K, "{\"question\": \"unclosed"), 400, "malformed-json", null);
      assertProblem(s.http.post(path, K, "[1, 2,"), 400, "malformed-json", null);
      // well-formed JSON, but no object: a client's bug, never a server fault
      Http.Res nul = s.http.post(path, K, "null");
      assertProblem(nul, 400, "invalid-request", null);
      assertThat(nul.json().get("detail").asText()).as(path).contains("JSON object");
      assertProblem(s.http.post(path, K, " null \n"), 400, "invalid-request", null);
    }
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, ""), 400, "malformed-json", null);
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"a?\"} trailing"), 400, "malformed-json", null);
  }

  @Test
  void wrongTypesAreNamed() {
    Http.Res r = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\": 5}");
    assertProblem(r, 400, "invalid-request", null);
    assertThat(r.json().get("detail").asText()).contains("question");
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"a?\",\"k\":\"ten\"}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"a?\",\"k\":\"10\"}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"a?\",\"k\":0}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"a?\",\"asked_at\":\"yesterday\"}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, "{\"turns\":\"hello\"}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, "{\"turns\":[{\"text\":\"x\",\"index\":-2}]}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, "{\"turns\":[{\"text\":\"x\",\"role\":\"robot\"}]}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, "{\"turns\":[]}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v3/memories/search/", K, "{\"query\": 3, \"filters\": {\"user_id\": \"alice\"}}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v3/memories/add/", K, "{\"messages\": [{\"role\": \"user\"}], \"user_id\": \"alice\"}"), 400, "invalid-request", null);
    assertProblem(s.http.get("/v1/namespaces/alice/records?limit=many", K), 400, "invalid-request", null);
    assertProblem(s.http.get("/v1/namespaces/alice/nodes?kind=planet", K), 400, "invalid-request", null);
  }

  @Test
  void blankQuestionAndBlankTurn() {
    assertProblem(s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"   \"}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/answer", K, "{}"), 400, "invalid-request", null);
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, "{\"turns\":[{\"text\":\" \"}]}"), 400, "invalid-request", null);
  }

  @Test
  void unknownFieldsAreRejected() {
    Http.Res r = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"a?\",\"topk\":3}");
    assertProblem(r, 400, "unknown-field", null);
    assertThat(r.json().get("detail").asText()).contains("topk").contains("token_budget");
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, "{\"turns\":[{\"text\":\"x\",\"mood\":\"ok\"}]}"), 400, "unknown-field", null);
  }

  @Test
  void oversizedBodyIs413() {
    String big = "{\"turns\":[{\"text\":\"" + "x".repeat(70 * 1024) + "\"}]}";
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/s1/turns", K, big), 413, "body-too-large", null);
    assertProblem(s.http.post("/v3/memories/add/", K, big), 413, "body-too-large", null);
  }

  @Test
  void nonJsonIs415() {
    for (String path : jsonRoutes()) {
      assertProblem(s.http.send("POST", path, K, "text/plain", "{\"question\":\"a?\"}"), 415, "unsupported-media-type", null);
      assertProblem(s.http.send("POST", path, K, null, "{\"question\":\"a?\"}"), 415, "unsupported-media-type", null);
    }
  }

  @Test
  void unknownNamespaceAndSessionAre404() {
    assertProblem(s.http.post("/v1/namespaces/nobody/recall", K, RouteSamples.QUESTION), 404, "namespace-not-found", null);
    assertProblem(s.http.post("/v1/namespaces/nobody/answer", K, RouteSamples.QUESTION), 404, "namespace-not-found", null);
    for (String p : new String[] {"status", "sessions", "segments", "records", "nodes"}) {
      assertProblem(s.http.get("/v1/namespaces/nobody/" + p, K), 404, "namespace-not-found", null);
    }
    assertProblem(s.http.delete("/v1/namespaces/nobody", K), 404, "namespace-not-found", null);
    assertProblem(s.http.delete("/v1/namespaces/alice/sessions/never", K), 404, "session-not-found", null);
    assertProblem(s.http.post("/v1/namespaces/nobody/encode-pending", K, null), 404, "namespace-not-found", null);
    // a name the library accepts is a name like any other: unknown here, so 404
    assertProblem(s.http.get("/v1/namespaces/good%20name/status", K), 404, "namespace-not-found", null);
    assertProblem(s.http.get("/v2/unknown", K), 404, "not-found", null);
    assertProblem(s.http.send("PUT", "/v1/namespaces/alice/recall", K, "application/json", "{}"), 404, "not-found", null);
  }

  /** Names the library refuses are refused with its reason, as a problem document, on path, body and query. */
  @Test
  void namesBreakingTheLibrarysRuleAre400() {
    String tooLong = "x".repeat(dev.lychee.api.Checks.MAX_NAME_LENGTH + 1);
    java.util.Map<String, String> bad = java.util.Map.of(
        Http.segment("tab\there"), "control", Http.segment("nul\u0000"), "control", Http.segment(tooLong), "256",
        "%20%20", "visible", Http.segment("\u200B\u00A0"), "visible");
    bad.forEach((path, why) -> {
      for (String route : new String[] {"/v1/namespaces/" + path + "/status", "/v1/namespaces/alice/sessions/" + path + "/turns"}) {
        Http.Res r = s.http.get(route, K);
        assertProblem(r, 400, "invalid-request", null);
        assertThat(r.json().get("detail").asText()).as(route).contains(why);
      }
    });
    Http.Res body = s.http.post("/v3/memories/search/", K, "{\"query\":\"tea?\",\"filters\":{\"user_id\":\"" + tooLong + "\"}}");
    assertProblem(body, 400, "invalid-request", null);
    assertThat(body.json().get("detail").asText()).contains("user_id").contains("256");
    assertProblem(s.http.delete("/v1/memories/?user_id=%01", K), 400, "invalid-request", null);
  }

  @Test
  void tokenBudgetAndKBoundTheEvidence() {
    for (int i = 0; i < 12; i++) {
      s.http.post("/v1/namespaces/alice/sessions/b" + i + "/turns", K,
          "{\"turns\":[{\"speaker\":\"Nadia\",\"text\":\"Nadia adopted pet number " + i + ", a cat with a long story behind it.\"}],\"flush\":true}");
    }
    Http.Res k = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"Which cat did Nadia adopt?\",\"k\":3}");
    assertThat(k.json().get("evidence").size()).isBetween(1, 3);
    Http.Res b = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"Which cat did Nadia adopt?\",\"token_budget\":60,\"asked_at\":\"2024-01-01T10:00\"}");
    assertThat(b.status()).as(b.body()).isEqualTo(200);
    // the library fits the evidence, as the answer prompt shows it, into the budget
    assertThat(b.json().get("evidence_tokens").asInt()).isBetween(1, 60);
    assertThat(b.json().get("token_budget").asInt()).isEqualTo(60);
    assertThat(b.json().get("asked_at").asText()).startsWith("2024-01-01T10:00");
    int items = 0;
    for (var e : b.json().get("evidence")) {
      assertThat(e.get("tokens").asInt()).isPositive().isLessThan(b.json().get("evidence_tokens").asInt());
      assertThat(e.get("turns").size()).isPositive();
      items++;
    }
    assertThat(items).isPositive();
    // a larger budget holds at least as much, still within it; the answer route obeys it too
    Http.Res wide = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"Which cat did Nadia adopt?\",\"token_budget\":400}");
    assertThat(wide.json().get("evidence").size()).isGreaterThanOrEqualTo(items);
    assertThat(wide.json().get("evidence_tokens").asInt()).isBetween(b.json().get("evidence_tokens").asInt(), 400);
    Http.Res answer = s.http.post("/v1/namespaces/alice/answer", K, "{\"question\":\"Which cat did Nadia adopt?\",\"token_budget\":60}");
    assertThat(answer.json().get("evidence_tokens").asInt()).isBetween(1, 60);
    // below the library's smallest budget: a 400 that names the field and the range
    Http.Res tiny = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"Which cat?\",\"token_budget\":20}");
    assertProblem(tiny, 400, "invalid-request", null);
    assertThat(tiny.json().get("detail").asText()).contains("token_budget").contains("32");
    // the library's whole range, as README "Token budgets" says: up to 1,000,000
    Http.Res largest = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"Which cat?\",\"token_budget\":1000000}");
    assertThat(largest.status()).as(largest.body()).isEqualTo(200);
    assertThat(largest.json().get("token_budget").asInt()).isEqualTo(1_000_000);
    Http.Res above = s.http.post("/v1/namespaces/alice/recall", K, "{\"question\":\"Which cat?\",\"token_budget\":1000001}");
    assertProblem(above, 400, "invalid-request", null);
    assertThat(above.json().get("detail").asText()).contains("token_budget").contains("1000000");
    assertThat(b.json().get("plan").get("routes").size()).isPositive();
  }
}
