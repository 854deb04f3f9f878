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
