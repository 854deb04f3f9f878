package dev.lychee.server;

import java.util.List;

/**
 * One concrete, valid request per route template, against namespace {@code alice} (session
 * {@code s1}) or the mem0 user {@code alice}. Tests walk this list to call every route; the
 * OpenAPI test checks that it covers every mounted and every documented route. Deletes come last.
 */
final class RouteSamples {
  /** A sample: the route template it exercises, and the concrete request. */
  record Sample(String method, String template, String path, String body) {}

  static final String TURNS = "{\"turns\":[{\"speaker\":\"Nadia\",\"text\":\"I adopted a grey cat called Miso.\"}],\"flush\":true}";
  static final String QUESTION = "{\"question\":\"What pet did Nadia adopt?\",\"k\":5}";

  static List<Sample> all() {
    String ns = "/v1/namespaces/alice";
    return List.of(
        new Sample("POST", "/v1/namespaces/{ns}/sessions/{session}/turns", ns + "/sessions/s1/turns", TURNS),
        new Sample("GET", "/v1/namespaces", "/v1/namespaces", null),
        new Sample("GET", "/v1/namespaces/{ns}/sessions/{session}/turns", ns + "/sessions/s1/turns?limit=2", null),
        new Sample("POST", "/v1/namespaces/{ns}/sessions/{session}/flush", ns + "/sessions/s1/flush", null),
        new Sample("POST", "/v1/namespaces/{ns}/recall", ns + "/recall", QUESTION),
        new Sample("POST", "/v1/namespaces/{ns}/answer", ns + "/answer", QUESTION),
        new Sample("GET", "/v1/namespaces/{ns}/status", ns + "/status", null),
        new Sample("POST", "/v1/namespaces/{ns}/await-idle", ns + "/await-idle?timeout_ms=5000", null),
        new Sample("GET", "/v1/namespaces/{ns}/sessions", ns + "/sessions?limit=10", null),
        new Sample("GET", "/v1/namespaces/{ns}/segments", ns + "/segments?session=s1", null),
        new Sample("GET", "/v1/namespaces/{ns}/records", ns + "/records?offset=0&limit=5", null),
        new Sample("GET", "/v1/namespaces/{ns}/nodes", ns + "/nodes?kind=entity", null),
        new Sample("POST", "/v1/namespaces/{ns}/encode-pending", ns + "/encode-pending", null),
        new Sample("GET", "/healthz", "/healthz", null),
        new Sample("GET", "/readyz", "/readyz", null),
        new Sample("GET", "/metrics", "/metrics", null),
        new Sample("GET", "/openapi.json", "/openapi.json", null),
        new Sample("GET", "/", "/", null),
        new Sample("GET", "/inspector/{asset}", "/inspector/app.js", null),
        new Sample("POST", "/v1/namespaces/{ns}/recall/trace", ns + "/recall/trace", QUESTION),
        new Sample("GET", "/v1/inspector/eval", "/v1/inspector/eval", null),
        new Sample("GET", "/v1/ping", "/v1/ping/", null),
        new Sample("POST", "/v3/memories/add", "/v3/memories/add/",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"I prefer green tea.\"}],\"user_id\":\"alice\",\"run_id\":\"m1\"}"),
        new Sample("POST", "/v3/memories", "/v3/memories/?page=1&page_size=10", "{\"filters\":{\"user_id\":\"alice\"}}"),
        new Sample("POST", "/v3/memories/search", "/v3/memories/search/",
            "{\"query\":\"What tea do I like?\",\"filters\":{\"user_id\":\"alice\"}}"),
        new Sample("DELETE", "/v1/memories", "/v1/memories/?user_id=alice&run_id=m1", null),
        new Sample("DELETE", "/v1/namespaces/{ns}/sessions/{session}", ns + "/sessions/s1", null),
        new Sample("DELETE", "/v1/namespaces/{ns}", ns, null));
  }

  private RouteSamples() {}
}
