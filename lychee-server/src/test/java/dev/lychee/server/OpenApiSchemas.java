package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.lychee.server.http.OpsRoutes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks real responses against the response schemas of the OpenAPI document in the repository,
 * with a JSON Schema 2020-12 validator (networknt, which the MCP SDK already brings). The check is
 * stricter than the document: every object schema that lists properties is closed
 * ({@code additionalProperties: false}) unless it says otherwise, so a field the server sends but
 * the document does not describe fails, as does a required field that is missing or a value of
 * the wrong type.
 */
final class OpenApiSchemas {
  private final JsonNode doc;
  private final ObjectNode strictComponents;
  private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  OpenApiSchemas() {
    try {
      this.doc = Http.JSON.readTree(OpsRoutes.loadOpenApi());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.strictComponents = doc.get("components").deepCopy();
    close(strictComponents);
  }

  JsonNode document() {
    return doc;
  }

  /**
   * The documented schema of a response, closed; null when the document gives the media type no
   * schema. Fails when the route, the status or the media type is not documented.
   */
  JsonNode responseSchema(String method, String template, int status, String contentType) {
    JsonNode op = doc.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
    assertThat(op.isObject()).as("%s %s is documented", method, template).isTrue();
    JsonNode response = op.path("responses").path(Integer.toString(status));
    assertThat(response.isObject()).as("%s %s documents status %s", method, template, status).isTrue();
    if (response.has("$ref")) {
      response = resolve(response.get("$ref").asText());
    }
    String media = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
    JsonNode content = response.path("content").path(media);
    assertThat(content.isObject()).as("%s %s %s documents content type %s (has %s)", method, template, status, media,
        response.path("content")).isTrue();
    JsonNode schema = content.get("schema");
    if (schema == null) {
      return null;
    }
    ObjectNode strict = schema.deepCopy();
    close(strict);
    return strict;
  }

  /** Asserts that a response matches its documented schema. */
  void assertMatches(String method, String template, Http.Res res) {
    assertThat(mismatches(method, template, res)).isEmpty();
  }

  /** How a response departs from its documented schema, one line per violation (empty when it matches). */
  List<String> mismatches(String method, String template, Http.Res res) {
    JsonNode schema = responseSchema(method, template, res.status(), res.contentType());
    if (schema == null || res.json() == null) {
      return List.of();
    }
    String where = method + " " + template + " -> " + res.status() + " ";
    return violations(schema, res.json()).stream().map(v -> where + v).toList();
  }

  /** The validator's messages for {@code value} against {@code schema} (whose refs point into the document's components). */
  List<String> violations(JsonNode schema, JsonNode value) {
    ObjectNode root = schema.isObject() ? ((ObjectNode) schema).deepCopy() : Http.JSON.createObjectNode();
    // "#/components/..." references resolve against this root
    root.set("components", strictComponents);
    Schema s = registry.getSchema(root);
    List<String> out = new ArrayList<>();
    for (Error e : s.validate(value)) {
      out.add(e.getInstanceLocation() + ": " + e.getMessage());
    }
    return out;
  }

  /** Every object schema listing properties and reachable from a response must list its required ones. */
  List<String> responseObjectsWithoutRequired() {
    List<String> missing = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> ps = doc.get("paths").fields(); ps.hasNext(); ) {
      Map.Entry<String, JsonNode> p = ps.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = p.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        if (op.getKey().equals("parameters")) {
          continue;
        }
        for (Iterator<Map.Entry<String, JsonNode>> rs = op.getValue().path("responses").fields(); rs.hasNext(); ) {
          Map.Entry<String, JsonNode> r = rs.next();
          JsonNode resp = r.getValue().has("$ref") ? resolve(r.getValue().get("$ref").asText()) : r.getValue();
          for (JsonNode c : resp.path("content")) {
            requiredListed(c.path("schema"), op.getKey() + " " + p.getKey() + " " + r.getKey(), missing, new ArrayList<>());
          }
        }
      }
    }
    return missing;
  }

  private void requiredListed(JsonNode s, String where, List<String> missing, List<String> visiting) {
    if (!s.isObject()) {
      return;
    }
    if (s.has("$ref")) {
      String ref = s.get("$ref").asText();
      if (!visiting.contains(ref)) {
        visiting.add(ref);
        requiredListed(resolve(ref), where + " " + ref, missing, visiting);
      }
      return;
    }
    JsonNode props = s.path("properties");
    if (props.isObject() && props.size() > 0 && !s.has("required")) {
      missing.add(where + " " + props.properties().stream().map(Map.Entry::getKey).toList());
    }
    props.forEach(v -> requiredListed(v, where, missing, visiting));
    requiredListed(s.path("items"), where, missing, visiting);
    requiredListed(s.path("additionalProperties"), where, missing, visiting);
  }

  private JsonNode resolve(String ref) {
    assertThat(ref).startsWith("#/");
    JsonNode n = doc.at(ref.substring(1));
    assertThat(n.isMissingNode()).as("reference %s resolves", ref).isFalse();
    return n;
  }

  /** Closes every object schema under {@code node} that lists properties and says nothing of others. */
  private static void close(JsonNode node) {
    if (node.isObject()) {
      ObjectNode o = (ObjectNode) node;
      if (o.has("properties") && o.get("properties").isObject() && !o.has("additionalProperties")) {
        o.put("additionalProperties", false);
      }
      o.forEach(OpenApiSchemas::close);
    } else if (node.isArray()) {
      node.forEach(OpenApiSchemas::close);
    }
  }
}
