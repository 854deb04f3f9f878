package dev.lychee.server.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Checks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code lychee mcp --namespace} follows the library's name rule: a bad name is a usage error naming the rule. */
class McpNamespaceOptionTest {
  @TempDir Path dir;

  @Test
  void aNameTheLibraryRefusesIsAUsageErrorBeforeAnythingIsOpened() {
    Path db = dir.resolve("never.db");
    String tooLong = "x".repeat(Checks.MAX_NAME_LENGTH + 1);
    assertThat(run("--namespace", tooLong, "--db", db.toString())).startsWith("2|").contains("--namespace is 257 chars long");
    assertThat(run("--namespace", "a\tb", "--db", db.toString())).startsWith("2|").contains("control");
    assertThat(run("--namespace", "   ", "--db", db.toString())).startsWith("2|").contains("visible");
    assertThat(Files.exists(db)).isFalse();
  }

  /** Exit code and stderr, joined by '|'. */
  private static String run(String... args) {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = new CommandLine(new McpCommand()).execute(args);
      return code + "|" + err.toString(StandardCharsets.UTF_8);
    } finally {
      System.setErr(saved);
    }
  }
}
