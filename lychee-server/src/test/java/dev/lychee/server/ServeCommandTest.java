package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.server.boot.ServeCommand;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(180)
class ServeCommandTest {
  @TempDir Path dir;

  @Test
  void refusesAnOpenServerOffLoopbackWithUsageExitCode() {
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new ServeCommand());
    cl.setErr(new PrintWriter(err));
    assertThat(cl.execute("--host", "0.0.0.0", "--db", dir.resolve("x.db").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("loopback").doesNotContain("Exception");
    assertThat(cl.execute("--keys", dir.resolve("missing.json").toString())).isEqualTo(2);
    assertThat(cl.execute("--port", "-5")).isEqualTo(2);
  }

  @Test
  void anOpenLoopbackServerSaysSoAtStart() throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
        "-cp", System.getProperty("java.class.path"), "dev.lychee.server.boot.ServerMain",
        "--port", "0", "--db", dir.resolve("open.db").toString()).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      StringBuilder seen = new StringBuilder();
      String line;
      while ((line = out.readLine()) != null && !line.contains("listening on")) {
        seen.append(line).append('\n');
      }
      assertThat(seen.toString()).contains("NO API KEYS").contains("loopback");
      assertThat(line).as(seen.toString()).contains("listening on http://127.0.0.1:");
      // /metrics carries the memory's meters beside the server's
      java.util.regex.Matcher url = java.util.regex.Pattern.compile("http://127\\.0\\.0\\.1:\\d+").matcher(line);
      assertThat(url.find()).isTrue();
      Http http = new Http(url.group());
      assertThat(http.post("/v1/namespaces/me/sessions/s/turns", null,
          "{\"turns\":[{\"speaker\":\"Ada\",\"text\":\"I moved to Lyon.\"}],\"flush\":true}").status()).isEqualTo(202);
      String metrics = http.get("/metrics", null).body();
      assertThat(metrics).contains("lychee_http_requests").contains("lychee_appends_total 1.0")
          .contains("lychee_turns_stored_total 1.0");
    } finally {
      p.destroy();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }
}
