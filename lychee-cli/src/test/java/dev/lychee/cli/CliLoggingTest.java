package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
