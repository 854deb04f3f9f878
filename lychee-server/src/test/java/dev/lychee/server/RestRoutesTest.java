package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.server.http.Access;
import dev.lychee.server.http.RouteSpec;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every route on a real server on loopback: success, then auth (no key, wrong key, key scoped elsewhere). */
@Timeout(120)
class RestRoutesTest {
  static TestServer s;

  @BeforeAll
  static void start() throws java.io.IOException {
    // an evaluation file, so that the inspector's chart route has something to serve
    java.nio.file.Path eval = java.nio.file.Files.createTempFile("lychee-eval", ".json");
    eval.toFile().deleteOnExit();
    java.nio.file.Files.writeString(eval, "{\"systems\":{\"lychee\":{\"recall_tokens\":{\"1000\":0.84}}}}");
    s = TestServer.start(ServerConfig.builder().port(0).keys(TestServer.keys()).maxBodyBytes(64 * 1024).evalJson(eval).build());
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  private static Map<String, RouteSpec> specs() {
    return s.server.routes().stream().collect(Collectors.toMap(r -> r.method().name() + " " + r.path(), r -> r));
  }

  @Test
  void everyRouteRefusesMissingWrongAndForeignKeysThenSucceedsWithTheRightOne() {
    Map<String, RouteSpec> specs = specs();
    for (RouteSamples.Sample x : RouteSamples.all()) {
      RouteSpec spec = specs.get(x.method() + " " + x.template());
      assertThat(spec).as("route %s %s is mounted", x.method(), x.template()).isNotNull();
      String ct = x.body() == null ? null : "application/json";
      if (spec.access().scope() != Access.Scope.PUBLIC) {
        Http.Res none = s.http.send(x.method(), x.path(), null, ct, x.body());
        assertProblem(none, 401, "unauthorized", x);
        assertThat(none.raw().headers().firstValue("WWW-Authenticate")).isPresent();
        assertProblem(s.http.send(x.method(), x.path(), "not-a-key-" + x.path().length(), ct, x.body()), 401, "unauthorized", x);
        assertProblem(s.http.send(x.method(), x.path(), TestServer.ADMIN + "x", ct, x.body()), 401, "unauthorized", x);
        String foreign = spec.access().scope() == Access.Scope.ANY ? TestServer.ALICE_WRITE : TestServer.BOB_WRITE;
        if (!(spec.access().scope() == Access.Scope.ANY && spec.access().right() != dev.lychee.server.auth.Right.ADMIN)) {
          assertProblem(s.http.send(x.method(), x.path(), foreign, ct, x.body()), 403, "forbidden", x);
        }
      }
      Http.Res ok = s.http.send(x.method(), x.path(), TestServer.ADMIN, ct, x.body());
      assertThat(ok.status()).as("%s %s -> %s", x.method(), x.path(), ok.body()).isBetween(200, 299);
      String type = ok.raw().headers().firstValue("Content-Type").orElse("");
      if (x.path().equals("/metrics")) {
        assertThat(ok.body()).contains("lychee_http_requests");
      } else if (x.path().equals("/") || x.path().startsWith("/inspector/")) {
        // the inspector's page and assets; every other route answers JSON
        assertThat(type).as("%s content type", x.path()).matches("text/(html|javascript|css).*");
        assertThat(ok.body()).isNotBlank();
      } else {
        assertThat(ok.json()).as("%s %s answers JSON", x.method(), x.path()).isNotNull();
      }
    }
  }

  @Test
  void keysAreCheckedByRight() {
    s.http.post("/v1/namespaces/alice/sessions/r1/turns", TestServer.ALICE_WRITE, RouteSamples.TURNS);
    // read key: may recall, may not write or delete
    assertThat(s.http.post("/v1/namespaces/alice/recall", TestServer.ALICE_READ, RouteSamples.QUESTION).status()).isEqualTo(200);
    assertProblem(s.http.post("/v1/namespaces/alice/sessions/r1/turns", TestServer.ALICE_READ, RouteSamples.TURNS), 403, "forbidden", null);
    // write key: may delete a session, not the namespace
    assertProblem(s.http.delete("/v1/namespaces/alice", TestServer.ALICE_WRITE), 403, "forbidden", null);
    // prefix key reaches team-a and team-b, not teams-x or alice
    assertThat(s.http.post("/v1/namespaces/team-b/sessions/s/turns", TestServer.TEAM_WRITE, RouteSamples.TURNS).status()).isEqualTo(202);
    assertProblem(s.http.post("/v1/namespaces/teams-x/sessions/s/turns", TestServer.TEAM_WRITE, RouteSamples.TURNS), 403, "forbidden", null);
    // listings show only what the key reaches
    s.http.post("/v1/namespaces/bob/sessions/b/turns", TestServer.BOB_WRITE, RouteSamples.TURNS);
    assertThat(s.http.get("/v1/namespaces", TestServer.ALICE_READ).json().get("items").findValuesAsText("namespace")).containsExactly("alice");
    assertThat(s.http.get("/v1/namespaces", TestServer.TEAM_WRITE).json().get("items").findValuesAsText("namespace")).containsExactly("team-b");
    assertThat(s.http.get("/v1/namespaces", TestServer.ADMIN).json().get("items").findValuesAsText("namespace")).contains("alice", "bob", "team-b");
    Http.Res turns = s.http.get("/v1/namespaces/alice/sessions/r1/turns", TestServer.ALICE_READ);
    assertThat(turns.json().get("items").get(0).get("text").asText()).isEqualTo("I adopted a grey cat called Miso.");
    assertThat(turns.json().get("items").get(0).get("speaker").asText()).isEqualTo("Nadia");
    // the other header forms
    Http.Res token = s.http.send("GET", "/v1/namespaces/alice/status", null, null, null);
    assertThat(token.status()).isEqualTo(401);
    assertThat(new Http(s.server.baseUrl()).get("/v1/namespaces/team-b/status", TestServer.TEAM_WRITE).status()).isEqualTo(200);
  }

  /**
   * Names the library, the CLI and the adapters store (ADK's {@code <app>/<user>}, spaces,
   * non-ASCII, the longest valid name, names of dots, URL delimiters) are listed by {@code GET
   * /v1/namespaces} and reachable on every route: sessions, turns, recall, deletes, and a key scoped
   * to a {@code myapp/*} prefix reaches ADK's namespaces of that app and nothing else.
   */
  @Test
  void everyNameTheLibraryStoresIsListedAndReachable() {
    java.util.List<String> names = java.util.List.of("myapp/alice", "Alice Smith", "jos\u00e9 \uD83C\uDF52",
        "long-" + "x".repeat(195), "\u00e9".repeat(dev.lychee.api.Checks.MAX_NAME_LENGTH), ".", "..", "100% sure",
        "a?b#c&d=e", "semi;colon", "back\\slash", "app/", "/lead", "a//b", "+plus+", " spaced ");
    String adk = "adk-secret-0123456789abcdef";
    java.util.List<dev.lychee.server.auth.ApiKey> keys = new java.util.ArrayList<>(TestServer.keys().keys());
    keys.add(TestServer.key("adk", adk, dev.lychee.server.auth.Right.ADMIN, null, "myapp/*"));
    try (TestServer t = TestServer.start(ServerConfig.builder().port(0).keys(dev.lychee.server.auth.ApiKeys.of(keys)).build())) {
      String k = TestServer.ADMIN;
      // each namespace's session is a name of the same kind (a '/', a space, the namespace's own characters)
      java.util.function.UnaryOperator<String> sessionOf = ns -> ("run/1 " + ns).substring(0, Math.min(ns.length() + 6,
          dev.lychee.api.Checks.MAX_NAME_LENGTH));
      for (String ns : names) {
        // stored the way the library, the CLI and the adapters store (not through the server)
        t.memory.append(ns, sessionOf.apply(ns), java.util.List.of(dev.lychee.api.Turn.user("Nadia", "Nadia adopted a grey cat called Miso.")));
        t.memory.flush(ns, sessionOf.apply(ns));
      }
      assertThat(t.http.get("/v1/namespaces?limit=100", k).json().get("items").findValuesAsText("namespace"))
          .containsExactlyInAnyOrderElementsOf(names);
      for (String ns : names) {
        String path = "/v1/namespaces/" + Http.segment(ns);
        String session = sessionOf.apply(ns);
        Http.Res sessions = t.http.get(path + "/sessions", k);
        assertThat(sessions.status()).as("%s: %s", ns, sessions.body()).isEqualTo(200);
        assertThat(sessions.json().get("items").findValuesAsText("session")).containsExactly(session);
        Http.Res turns = t.http.get(path + "/sessions/" + Http.segment(session) + "/turns", k);
        assertThat(turns.status()).as("%s: %s", ns, turns.body()).isEqualTo(200);
        assertThat(turns.json().get("items").get(0).get("text").asText()).contains("Miso");
        Http.Res recall = t.http.post(path + "/recall", k, RouteSamples.QUESTION);
        assertThat(recall.status()).as("%s: %s", ns, recall.body()).isEqualTo(200);
        assertThat(recall.json().get("namespace").asText()).isEqualTo(ns);
        assertThat(recall.json().get("evidence").toString()).contains("Miso");
        assertThat(t.http.get(path + "/status", k).json().get("turns").asInt()).isEqualTo(1);
        assertThat(t.http.post(path + "/sessions/" + Http.segment("second/2 \u00e9") + "/turns", k, RouteSamples.TURNS)
            .status()).as(ns).isEqualTo(202);
      }
      // the usual client encodings: encodeURIComponent's %2F and %20, a lower-case %2f
      assertThat(t.http.get("/v1/namespaces/myapp%2Falice/status", k).status()).isEqualTo(200);
      assertThat(t.http.get("/v1/namespaces/myapp%2falice/status", k).status()).isEqualTo(200);
      assertThat(t.http.get("/v1/namespaces/Alice%20Smith/status", k).status()).isEqualTo(200);
      // a key scoped to myapp/* reaches ADK's namespaces of that app and sees only them
      assertThat(t.http.get("/v1/namespaces", adk).json().get("items").findValuesAsText("namespace")).containsExactly("myapp/alice");
      assertThat(t.http.get("/v1/namespaces/myapp%2Falice/status", adk).status()).isEqualTo(200);
      assertProblem(t.http.get("/v1/namespaces/app%2F/status", adk), 403, "forbidden", null);
      // deletes: a session, then each namespace, which is then gone
      for (String ns : names) {
        String path = "/v1/namespaces/" + Http.segment(ns);
        Http.Res one = t.http.delete(path + "/sessions/" + Http.segment(sessionOf.apply(ns)), k);
        assertThat(one.status()).as("%s: %s", ns, one.body()).isEqualTo(200);
        assertThat(one.json().get("session").asText()).isEqualTo(sessionOf.apply(ns));
        Http.Res all = t.http.delete(path, k);
        assertThat(all.status()).as("%s: %s", ns, all.body()).isEqualTo(200);
        assertThat(all.json().get("namespace").asText()).isEqualTo(ns);
        assertProblem(t.http.get(path + "/status", k), 404, "namespace-not-found", null);
      }
      assertThat(t.http.get("/v1/namespaces", k).json().get("items").size()).isZero();
    }
  }

  /**
   * mem0's {@code run_id} narrows the search space: a search filtered to a run finds that run's
   * items even when the namespace's best matches all lie in other runs, and {@code top_k} still
   * bounds the answer.
   */
  @Test
  void mem0SearchFilteredToARunFindsItsItemsWhenBetterOnesLieElsewhere() throws Exception {
    try (TestServer t = TestServer.start()) {
      String k = TestServer.ADMIN;
      java.util.function.BiConsumer<String, String> add = (run, text) -> assertThat(t.http.post("/v3/memories/add/", k,
          "{\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}],\"user_id\":\"carol\",\"run_id\":\"" + run + "\"}")
          .status()).isEqualTo(200);
      add.accept("s1", "I keep my old bicycle in the garage behind the house.");
      for (int i = 2; i <= 9; i++) {
        add.accept("s" + i, "Where is my bicycle? My bicycle number " + i + " is where my bicycle always is, my bicycle stand.");
      }
      String query = "{\"query\":\"Where is my bicycle?\",\"top_k\":%d,\"filters\":{\"user_id\":\"carol\"%s}}";
      Http.Res best = t.http.post("/v3/memories/search/", k, query.formatted(1, ""));
      assertThat(best.json().get("results")).hasSize(1);
      assertThat(best.json().get("results").get(0).get("run_id").asText()).as("the best match lies in another run").isNotEqualTo("s1");
      Http.Res run = t.http.post("/v3/memories/search/", k, query.formatted(1, ",\"run_id\":\"s1\""));
      assertThat(run.status()).as(run.body()).isEqualTo(200);
      assertThat(run.json().get("results")).as(run.body()).hasSize(1);
      assertThat(run.json().get("results").get(0).get("run_id").asText()).isEqualTo("s1");
      assertThat(run.json().get("results").get(0).get("memory").asText()).contains("garage");
      Http.Res two = t.http.post("/v3/memories/search/", k, query.formatted(2, ",\"run_id\":\"s4\""));
      assertThat(two.json().get("results").size()).isBetween(1, 2);
      assertThat(two.json().get("results").findValuesAsText("run_id")).containsOnly("s4");
      assertThat(two.json().get("results").get(0).get("memory").asText()).contains("number 4");
    }
  }

  @Test
  void aProxysBasicCredentialsDoNotHideTheApiKey() throws Exception {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    java.util.function.BiFunction<String, String, java.net.http.HttpResponse<String>> get = (authorization, xApiKey) -> {
      java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(s.server.baseUrl() + "/v1/namespaces"))
          .header("Authorization", authorization);
      if (xApiKey != null) {
        b.header("X-API-Key", xApiKey);
      }
      try {
        return client.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      } catch (java.io.IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    };
    // nginx basic auth in front of the server: the key travels in X-API-Key
    java.net.http.HttpResponse<String> ok = get.apply("Basic dXNlcjpwYXNz", TestServer.ALICE_READ);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    java.net.http.HttpResponse<String> alone = get.apply("Basic dXNlcjpwYXNz", null);
    assertThat(alone.statusCode()).isEqualTo(401);
    assertThat(Http.JSON.readTree(alone.body()).get("detail").asText())
        .isEqualTo("unsupported Authorization scheme 'basic'; send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'");
    assertThat(alone.headers().firstValue("WWW-Authenticate")).isPresent();
    // the same on MCP
    int port = s.server.port();
    HostAndOriginTest.Raw mcp = HostAndOriginTest.send(port, "POST", "/mcp", "127.0.0.1:" + port, null, "application/json",
        HostAndOriginTest.INIT, Map.of("Authorization", "Basic dXNlcjpwYXNz", "X-API-Key", TestServer.ALICE_READ));
    assertThat(mcp.status()).as(mcp.body()).isEqualTo(200);
  }

  @Test
  void problemsNeverCarryKeysOrStackTraces() {
    Http.Res r = s.http.get("/v1/namespaces/alice/status", "secret-that-must-not-echo");
    assertThat(r.body()).doesNotContain("secret-that-must-not-echo").doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(s.server.config().toString()).doesNotContain(TestServer.ADMIN).doesNotContain(dev.lychee.server.auth.ApiKeys.sha256Hex(TestServer.ADMIN));
    assertThat(TestServer.keys().toString()).doesNotContain(dev.lychee.server.auth.ApiKeys.sha256Hex(TestServer.ADMIN));
  }

  static void assertProblem(Http.Res r, int status, String code, RouteSamples.Sample x) {
    String what = x == null ? "" : x.method() + " " + x.path();
    assertThat(r.status()).as("%s status; body %s", what, r.body()).isEqualTo(status);
    assertThat(r.contentType()).as(what).startsWith("application/problem+json");
    assertThat(r.code()).as(what).isEqualTo(code);
    assertThat(r.json().get("type").asText()).isEqualTo("urn:lychee:problem:" + code);
    assertThat(r.json().get("status").asInt()).isEqualTo(status);
    assertThat(r.body()).doesNotContain("Exception").doesNotContain("\tat ");
  }
}
