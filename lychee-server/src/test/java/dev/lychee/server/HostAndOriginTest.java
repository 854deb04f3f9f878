package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * DNS rebinding and cross-site requests, sent as a browser would send them: raw HTTP over a socket,
 * since Java's HttpClient will not set {@code Host}. A page at {@code http://evil.example:PORT} whose
 * name the attacker's DNS turned into 127.0.0.1 reaches the server with {@code Host:
 * evil.example:PORT}; any other site's page sends its own {@code Origin}.
 */
@Timeout(120)
class HostAndOriginTest {
  static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
      + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  /** One response read off the socket. */
  record Raw(int status, Map<String, String> headers, String body) {
    JsonNode json() throws IOException {
      return Http.JSON.readTree(body);
    }
  }

  @Test
  void aKeylessServerRefusesForeignHostsAndOriginsOnRestMem0AndMcp() throws Exception {
    try (TestServer s = TestServer.start(ServerConfig.builder().port(0).build())) {
      int port = s.server.port();
      String evilHost = "evil.example:" + port;
      String ownHost = "127.0.0.1:" + port;
      assertThat(s.http.post("/v1/namespaces/alice/sessions/s1/turns", null, RouteSamples.TURNS).status()).isEqualTo(202);

      // the rebound page: its Host names the attacker's domain
      assertRefused(send(port, "GET", "/v1/namespaces", evilHost, null, null, null), "DNS rebinding");
      assertRefused(send(port, "GET", "/v1/namespaces/alice/sessions/s1/turns", evilHost, "http://" + evilHost, null, null), "DNS rebinding");
      assertRefused(send(port, "DELETE", "/v1/namespaces/alice", evilHost, "http://" + evilHost, null, null), "DNS rebinding");
      assertRefused(send(port, "POST", "/v3/memories/search/", evilHost, null, "application/json",
          "{\"query\":\"pet\",\"filters\":{\"user_id\":\"alice\"}}"), "DNS rebinding");
      assertRefused(send(port, "POST", "/mcp", evilHost, null, "application/json", INIT), "DNS rebinding");
      assertRefused(send(port, "GET", "/metrics", evilHost, null, null, null), "DNS rebinding");
      // any other site: a body-less "simple" POST needs no preflight, so the Origin is all there is to judge
      String evil = "http://evil.example";
      assertRefused(send(port, "POST", "/v1/namespaces/alice/sessions/s1/flush", ownHost, evil, null, null), "loopback pages");
      assertRefused(send(port, "GET", "/v1/namespaces", ownHost, evil, null, null), "loopback pages");
      assertRefused(send(port, "POST", "/v3/memories/search/", ownHost, evil, "application/json",
          "{\"query\":\"pet\",\"filters\":{\"user_id\":\"alice\"}}"), "loopback pages");
      assertRefused(send(port, "POST", "/mcp", ownHost, evil, "application/json", INIT), "loopback pages");
      assertRefused(send(port, "POST", "/mcp", ownHost, "null", "application/json", INIT), "loopback pages");
      assertThat(s.memory.store().countTurns("alice")).as("nothing was deleted").isEqualTo(1);

      // loopback Hosts, with no Origin (tools, the inspector's reads) or a loopback one (its writes), pass
      Raw list = send(port, "GET", "/v1/namespaces", ownHost, null, null, null);
      assertThat(list.status()).as(list.body()).isEqualTo(200);
      assertThat(list.body()).contains("alice");
      assertThat(send(port, "GET", "/v1/namespaces", "localhost:" + port, "http://localhost:" + port, null, null).status()).isEqualTo(200);
      assertThat(send(port, "GET", "/v1/namespaces", "[::1]:" + port, null, null, null).status()).isEqualTo(200);
      assertThat(send(port, "POST", "/v1/namespaces/alice/sessions/s1/flush", ownHost, "http://" + ownHost, null, null).status())
          .isEqualTo(200);
      Raw search = send(port, "POST", "/v3/memories/search/", ownHost, "http://" + ownHost, "application/json",
          "{\"query\":\"pet\",\"filters\":{\"user_id\":\"alice\"}}");
      assertThat(search.status()).as(search.body()).isEqualTo(200);
      Raw init = send(port, "POST", "/mcp", ownHost, "http://localhost:" + port, "application/json", INIT);
      assertThat(init.status()).as(init.body()).isEqualTo(200);
      assertThat(init.body()).contains("lychee");
      // no answer ever carries CORS headers, so no other site can read one
      for (Raw r : new Raw[] {list, search, init, send(port, "OPTIONS", "/v1/namespaces", ownHost, evil, null, null)}) {
        assertThat(r.headers()).doesNotContainKey("access-control-allow-origin");
      }
    }
  }

  @Test
  void aKeyedServerTakesAnyHostAndRefusesForeignOrigins() throws Exception {
    ServerConfig config = ServerConfig.builder().port(0).keys(TestServer.keys()).allowedOrigin("https://lychee.example.com").build();
    try (TestServer s = TestServer.start(config)) {
      int port = s.server.port();
      String key = "Bearer " + TestServer.ADMIN;
      // reached by any name (the key is the gate): another Host is fine
      Raw anyHost = sendKeyed(port, "GET", "/v1/namespaces", "lychee.internal:" + port, null, key);
      assertThat(anyHost.status()).as(anyHost.body()).isEqualTo(200);
      assertThat(sendKeyed(port, "GET", "/v1/namespaces", "evil.example:" + port, null, null).status()).isEqualTo(401);
      // its own pages, loopback pages and the allowed origin pass
      assertThat(sendKeyed(port, "GET", "/v1/namespaces", "lychee.internal:" + port, "http://lychee.internal:" + port, key).status())
          .isEqualTo(200);
      assertThat(sendKeyed(port, "GET", "/v1/namespaces", "127.0.0.1:" + port, "http://localhost:5173", key).status()).isEqualTo(200);
      assertThat(sendKeyed(port, "GET", "/v1/namespaces", "127.0.0.1:" + port, "https://lychee.example.com", key).status())
          .isEqualTo(200);
      // any other site is refused before its key is looked at, on REST and MCP alike
      Raw foreign = sendKeyed(port, "GET", "/v1/namespaces", "lychee.internal:" + port, "http://evil.example", key);
      assertRefused(foreign, "--allowed-origin");
      assertThat(foreign.body()).doesNotContain(TestServer.ADMIN);
      assertRefused(send(port, "POST", "/mcp", "127.0.0.1:" + port, "http://evil.example", "application/json", INIT, Map.of("Authorization", key)),
          "--allowed-origin");
      assertThat(foreign.headers()).doesNotContainKey("access-control-allow-origin");
    }
  }

  static void assertRefused(Raw r, String detail) throws IOException {
    assertThat(r.status()).as(r.body()).isEqualTo(403);
    assertThat(r.headers().get("content-type")).startsWith("application/problem+json");
    assertThat(r.json().get("code").asText()).isEqualTo("forbidden");
    assertThat(r.json().get("detail").asText()).contains(detail);
  }

  static Raw sendKeyed(int port, String method, String path, String host, String origin, String authorization) throws IOException {
    return send(port, method, path, host, origin, null, null, authorization == null ? Map.of() : Map.of("Authorization", authorization));
  }

  static Raw send(int port, String method, String path, String host, String origin, String contentType, String body) throws IOException {
    return send(port, method, path, host, origin, contentType, body, Map.of());
  }

  /** One HTTP/1.1 exchange on a fresh connection to 127.0.0.1, with exactly the headers given. */
  static Raw send(int port, String method, String path, String host, String origin, String contentType, String body,
      Map<String, String> extra) throws IOException {
    byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    StringBuilder req = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
    req.append("Host: ").append(host).append("\r\n");
    if (origin != null) {
      req.append("Origin: ").append(origin).append("\r\n");
    }
    if (contentType != null) {
      req.append("Content-Type: ").append(contentType).append("\r\n");
    }
    if (path.equals("/mcp")) {
      req.append("Accept: application/json, text/event-stream\r\n");
    }
    extra.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
    req.append("Content-Length: ").append(payload.length).append("\r\nConnection: close\r\n\r\n");
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(60_000);
      OutputStream out = socket.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(payload);
      out.flush();
      return parse(socket.getInputStream().readAllBytes());
    }
  }

  private static Raw parse(byte[] bytes) {
    String all = new String(bytes, StandardCharsets.ISO_8859_1);
    int end = all.indexOf("\r\n\r\n");
    String[] lines = all.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    byte[] rest = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      rest = dechunk(rest);
    }
    return new Raw(status, headers, new String(rest, StandardCharsets.UTF_8));
  }

  private static byte[] dechunk(byte[] in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = 0;
    while (i < in.length) {
      int lineEnd = indexOf(in, i);
      int size = Integer.parseInt(new String(in, i, lineEnd - i, StandardCharsets.ISO_8859_1).split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      out.write(in, lineEnd + 2, size);
      i = lineEnd + 2 + size + 2;
    }
    return out.toByteArray();
  }

  private static int indexOf(byte[] in, int from) {
    for (int i = from; i + 1 < in.length; i++) {
      if (in[i] == '\r' && in[i + 1] == '\n') {
        return i;
      }
    }
    return in.length;
  }
}
