package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.server.http.Access;
import dev.lychee.server.http.RouteSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The responses a running server sends match the OpenAPI document: for every route's sample
 * request, the success body, the 401 without a key and the 404 of an unknown namespace are
 * validated against the documented schema (required fields present, types right, no field the
 * document does not name). The checker itself is shown to reject what it must.
 */
@Timeout(120)
class OpenApiResponsesTest {
  final OpenApiSchemas schemas = new OpenApiSchemas();

  @Test
  void everySampleResponseMatchesItsDocumentedSchema() {
    assertThat(schemas.responseObjectsWithoutRequired()).as("response objects that do not list their required fields").isEmpty();
    try (TestServer s = TestServer.start()) {
      Map<String, RouteSpec> specs = s.server.routes().stream()
          .collect(Collectors.toMap(r -> r.method().name() + " " + r.path(), r -> r));
      // a second session, so that the namespace still holds turns when the samples delete s1 and then the namespace
      assertThat(s.http.post("/v1/namespaces/alice/sessions/keep/turns", TestServer.ADMIN, RouteSamples.TURNS).status()).isEqualTo(202);
      int validated = 0;
      List<String> mismatches = new java.util.ArrayList<>();
      for (RouteSamples.Sample x : RouteSamples.all()) {
        RouteSpec spec = specs.get(x.method() + " " + x.template());
        String ct = x.body() == null ? null : "application/json";
        if (spec.access().scope() != Access.Scope.PUBLIC) {
          Http.Res none = s.http.send(x.method(), x.path(), null, ct, x.body());
          mismatches.addAll(schemas.mismatches(x.method(), x.template(), none));
          validated++;
        }
        // writing turns creates the namespace, every other namespaced route answers 404 for an empty one
        if (x.template().contains("{ns}") && !x.template().endsWith("/turns")) {
          String unknown = x.path().replace("/namespaces/alice", "/namespaces/nobody-here");
          Http.Res missing = s.http.send(x.method(), unknown, TestServer.ADMIN, ct, x.body());
          assertThat(missing.status()).as("%s %s", x.method(), unknown).isEqualTo(404);
          mismatches.addAll(schemas.mismatches(x.method(), x.template(), missing));
          validated++;
        }
        Http.Res ok = s.http.send(x.method(), x.path(), TestServer.ADMIN, ct, x.body());
        assertThat(ok.status()).as("%s %s -> %s", x.method(), x.path(), ok.body()).isBetween(200, 299);
        mismatches.addAll(schemas.mismatches(x.method(), x.template(), ok));
        validated++;
      }
      assertThat(mismatches).as("responses that depart from the OpenAPI document").isEmpty();
      assertThat(validated).isGreaterThan(RouteSamples.all().size() * 2);
    }
  }

  @Test
  void theCheckerRejectsMissingRequiredFieldsWrongTypesAndUndocumentedFields() throws Exception {
    JsonNode schema = schemas.responseSchema("GET", "/v1/namespaces/{ns}/status", 200, "application/json");
    JsonNode good = Http.JSON.readTree("""
        {"namespace":"a","turns":1,"sessions":1,"records":0,"segments":{"pending":1,"encoded":0,"failed":0},
         "segments_pending":1,"queued":1,"stopped_sessions":0,"oldest_pending_age_ms":12,"last_error":null,
         "pending_by_kind":{},"idle":false,"turns_without_vectors":0}""");
    assertThat(schemas.violations(schema, good)).isEmpty();
    ObjectTweak t = new ObjectTweak(good);
    assertThat(schemas.violations(schema, t.without("queued"))).singleElement().asString().contains("queued");
    assertThat(schemas.violations(schema, t.with("turns", "many"))).singleElement().asString().contains("turns");
    assertThat(schemas.violations(schema, t.with("secret_field", 1))).singleElement().asString().contains("secret_field");
    // nested, through a $ref into the components: an evidence item with an undocumented field
    JsonNode recall = schemas.responseSchema("POST", "/v1/namespaces/{ns}/recall", 200, "application/json");
    JsonNode bad = Http.JSON.readTree("""
        {"namespace":"a","question":"q","k":1,"token_budget":null,"asked_at":null,
         "plan":{"type":"single","reason":"r","routes":[],"temporal_filter":null,"usage":{"input_tokens":0,"output_tokens":0}},
         "evidence":[{"extra":true}],"evidence_tokens":0,"elapsed_ms":1.5}""");
    List<String> v = schemas.violations(recall, bad);
    assertThat(v).isNotEmpty().anySatisfy(m -> assertThat(m).contains("extra"));
  }

  /** Copies of a JSON object with one field removed or set. */
  record ObjectTweak(JsonNode base) {
    JsonNode without(String field) {
      com.fasterxml.jackson.databind.node.ObjectNode o = base.deepCopy();
      o.remove(field);
      return o;
    }

    JsonNode with(String field, Object value) {
      com.fasterxml.jackson.databind.node.ObjectNode o = base.deepCopy();
      o.set(field, Http.JSON.valueToTree(value));
      return o;
    }
  }
}
