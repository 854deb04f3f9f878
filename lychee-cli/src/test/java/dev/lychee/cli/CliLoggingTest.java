package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The CLI ships a logging binding: no SLF4J notice, no library start-up noise, on a real run. */
class CliLoggingTest {

  @Test
  void theCliBindsLogback() {
    assertThat(LoggerFactory.getILoggerFactory().getClass().getName()).isEqualTo("ch.qos.logback.classic.LoggerContext");
  }

  @Test
  @Timeout(180)
  void aRealRunPrintsNoSlf4jNoticeAndNoLibraryWarnings(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("c.json");
    Files.writeString(file, "{\"sessions\":[{\"id\":\"s1\",\"turns\":[[\"Maya\",\"I adopted a beagle.\"]]}]}");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
        LycheeCli.class.getName(), "ingest", "alice", "--store", "memory", "--data", file.toString());
    pb.environment().put("HOME", dir.toString());
    pb.redirectErrorStream(false);
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(err).isZero();
    assertThat(new String(out, StandardCharsets.UTF_8)).contains("Stored 1 new turns");
    assertThat(err).doesNotContain("SLF4J").doesNotContain("CudaUtils").doesNotContain("HuggingFaceTokenizer");
  }

  /**
   * Logback takes a level name it does not know for DEBUG: {@code LYCHEE_LOG_LEVEL=warning} gave
   * every library's debug output. The CLI (its logback.xml) and the runnable jar's main (its
   * logback-server.xml) fall back to WARN and say so in one line; Jetty's start, which logs at
   * DEBUG, is the witness.
   */
  @Test
  @Timeout(300)
  void aMisspeltLogLevelFallsBackToWarnWithOneLine(@TempDir Path dir) throws Exception {
    for (String main : List.of(LycheeCli.class.getName(), "dev.lychee.server.boot.ServerMain")) {
      List<String> err = serveUntilListening(main, dir.resolve(main + ".db"), "warning");
      assertThat(err).as(main).contains("lychee: warning: LYCHEE_LOG_LEVEL='warning' is not a level "
          + "(trace, debug, info, warn, error or off); logging at warn");
      assertThat(err).as(main).noneMatch(line -> line.matches(".*\\bDEBUG\\b.*"));
    }
  }

  /** Runs {@code main serve} on a free loopback port and returns its stderr up to the "listening" line. */
  private static List<String> serveUntilListening(String main, Path db, String level) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"), main,
        "serve", "--port", "0", "--db", db.toString());
    pb.environment().put("HOME", db.getParent().toString());
    pb.environment().put("LYCHEE_LOG_LEVEL", level);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      p.getOutputStream().close();
      String line;
      while ((line = err.readLine()) != null) {
        lines.add(line);
        if (line.contains("listening on")) {
          break;
        }
      }
    } finally {
      p.destroy();
      p.waitFor(60, TimeUnit.SECONDS);
    }
    assertThat(lines).as(main).anyMatch(l -> l.contains("listening on"));
    return lines;
  }
}
