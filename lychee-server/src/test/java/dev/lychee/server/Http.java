package dev.lychee.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small JSON client for tests: every call returns status, headers and the parsed body. */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();
  private final String base;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  Http(String base) {
    this.base = base;
  }

  /** A response: status, body text, parsed JSON (null when not JSON), and the content type. */
  record Res(int status, String body, JsonNode json, String contentType, HttpResponse<String> raw) {
    String code() {
      return json == null || json.get("code") == null ? null : json.get("code").asText();
    }
  }

  Res send(String method, String path, String key, String contentType, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      String ct = r.headers().firstValue("Content-Type").orElse("");
      JsonNode json = null;
      if (ct.contains("json")) {
        json = JSON.readTree(r.body());
      }
      return new Res(r.statusCode(), r.body(), json, ct, r);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code name} as one path segment, the strict way: every UTF-8 byte but ASCII letters, digits,
   * {@code -} and {@code _} percent-encoded, so {@code /} is {@code %2F} and a name of dots ({@code
   * .}, {@code ..}) stays a name instead of a step up the path.
   */
  static String segment(String name) {
    StringBuilder b = new StringBuilder();
    for (byte x : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
        b.append((char) c);
      } else {
        b.append('%').append(String.format("%02X", c));
      }
    }
    return b.toString();
  }

  Res get(String path, String key) {
    return send("GET", path, key, null, null);
  }

  Res post(String path, String key, String json) {
    return send("POST", path, key, "application/json", json);
  }

  Res delete(String path, String key) {
    return send("DELETE", path, key, null, null);
  }
}
