package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.server.http.OpsRoutes;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The OpenAPI document in the repository matches the mounted routes, both ways, and is what the server serves. */
@Timeout(60)
class OpenApiTest {

  @Test
  void everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws Exception {
    try (TestServer s = TestServer.start()) {
      JsonNode doc = Http.JSON.readTree(OpsRoutes.loadOpenApi());
      assertThat(doc.get("openapi").asText()).isEqualTo("3.1.0");
      Set<String> documented = new TreeSet<>();
      for (Iterator<String> p = doc.get("paths").fieldNames(); p.hasNext(); ) {
        String path = p.next();
        for (Iterator<String> m = doc.get("paths").get(path).fieldNames(); m.hasNext(); ) {
          String method = m.next();
          if (!method.equals("parameters")) {
            documented.add(method.toUpperCase() + " " + path);
          }
        }
      }
      Set<String> mounted = s.server.routes().stream().map(r -> r.method().name() + " " + r.openApiPath())
          .collect(Collectors.toCollection(TreeSet::new));
      assertThat(documented).isEqualTo(mounted);
      Set<String> sampled = RouteSamples.all().stream().map(x -> x.method() + " " + x.template())
          .collect(Collectors.toCollection(TreeSet::new));
      assertThat(sampled).as("the route samples cover every documented route").isEqualTo(documented);
      // every documented route answers on the running server (not the router's 404)
      for (RouteSamples.Sample x : RouteSamples.all()) {
        Http.Res r = s.http.send(x.method(), x.path(), TestServer.ADMIN, x.body() == null ? null : "application/json", x.body());
        assertThat(r.code()).as("%s %s exists", x.method(), x.path()).isNotEqualTo("not-found");
      }
      Http.Res served = s.http.get("/openapi.json", null);
      assertThat(served.json()).isEqualTo(doc);
      // every operation says who may call it, and every namespaced one is secured
      for (Iterator<JsonNode> ps = doc.get("paths").elements(); ps.hasNext(); ) {
        for (Iterator<java.util.Map.Entry<String, JsonNode>> ops = ps.next().fields(); ops.hasNext(); ) {
          var op = ops.next();
          if (!op.getKey().equals("parameters")) {
            assertThat(op.getValue().has("security")).isTrue();
            assertThat(op.getValue().has("operationId")).isTrue();
          }
        }
      }
    }
  }
}
