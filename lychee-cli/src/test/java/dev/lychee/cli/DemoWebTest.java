package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code lychee demo --web} in its own JVM: it ingests the demo, serves the inspector and prints a working URL. */
@Timeout(180)
class DemoWebTest {
  private static final Pattern URL = Pattern.compile("Inspector: (http://127\\.0\\.0\\.1:\\d+)/#/ns/lychee-demo");

  @Test
  void servesTheIngestedDemoAndPrintsItsUrl() throws Exception {
    Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LycheeCli.class.getName(), "demo", "--web", "--port", "0"))
        .redirectErrorStream(true).start();
    try {
      String base = null;
      StringBuilder seen = new StringBuilder();
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          seen.append(line).append('\n');
          Matcher m = URL.matcher(line);
          if (m.find()) {
            base = m.group(1);
            break;
          }
        }
        assertThat(base).as(seen.toString()).isNotNull();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Lychee inspector");
        // no key on loopback: the demo namespace is listed with every demo turn
        HttpResponse<String> ns = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/namespaces")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(ns.statusCode()).isEqualTo(200);
        assertThat(ns.body()).contains("\"namespace\":\"lychee-demo\"").contains("\"turns\":70");
      }
    } finally {
      p.destroy();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }
}
