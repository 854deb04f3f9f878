package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lychee serve} that cannot start, run as the launcher runs it (its own JVM, the CLI's
 * logging): one clear line, no stack trace, a non-zero exit code; and the database in the CLI's
 * place ({@code $LYCHEE_DB}, else {@code $LYCHEE_HOME/lychee.db}), created private to the user.
 */
@Timeout(300)
class ServeFailuresTest {
  @TempDir Path dir;

  record Run(int exit, String err, String out) {
    List<String> errLines() {
      return err.lines().filter(l -> !l.isBlank()).toList();
    }
  }

  Run serve(Map<String, String> env, String... args) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new java.util.ArrayList<>(List.of(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
        LycheeCli.class.getName(), "serve"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("LYCHEE_") || k.startsWith("OPENAI_") || k.startsWith("OLLAMA_"));
    pb.environment().put("HOME", dir.resolve("user").toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    // a server that did start would never exit: the timeout fails the test instead of hanging it
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("serve exits").isTrue();
    return new Run(p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  static void assertNoTrace(Run r) {
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("ERROR").doesNotContain("SLF4J");
  }

  @Test
  void aBadLlmSettingIsOneLineAndExitTwoAndCreatesNothing() throws Exception {
    Path home = dir.resolve("home");
    Run r = serve(Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_LLM", "gpt-4o"), "--port", "0");
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("lychee serve: LYCHEE_LLM='gpt-4o': expected openai:<model> or ollama:<model>");
    assertThat(Files.exists(home)).isFalse();
  }

  @Test
  void aBadOptionIsAUsageError() throws Exception {
    Run r = serve(Map.of("LYCHEE_HOME", dir.resolve("home").toString()), "--port", "eighty");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines().get(0)).startsWith("lychee: ").contains("--port").contains("eighty");
    assertNoTrace(r);
    Run queue = serve(Map.of("LYCHEE_HOME", dir.resolve("home").toString()), "--queue-capacity", "0");
    assertThat(queue.exit()).isEqualTo(2);
    assertThat(queue.errLines()).containsExactly("lychee serve: --queue-capacity must be at least 1: 0");
    assertThat(Files.exists(dir.resolve("home"))).isFalse();
    Run unknown = serve(Map.of(), "--bogus");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.errLines().get(0)).isEqualTo("lychee: Unknown option: '--bogus'");
  }

  @Test
  void aPortInUseIsOneLineAndExitOneAndTheDatabaseFollowsTheCliRule() throws Exception {
    Path home = dir.resolve("home");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Run r = serve(Map.of("LYCHEE_HOME", home.toString()), "--port", Integer.toString(port));
      assertThat(r.exit()).as(r.err()).isEqualTo(1);
      List<String> lines = r.errLines();
      assertThat(lines.get(lines.size() - 1)).isEqualTo("lychee serve: cannot listen on 127.0.0.1:" + port
          + ": Address already in use (another process may hold the port; choose one with --port)");
      // before it: only the line saying what runs
      assertThat(lines).hasSize(2);
      assertThat(lines.get(0)).startsWith("lychee: SQLite store " + home.resolve("lychee.db"));
      assertNoTrace(r);
      // $LYCHEE_HOME/lychee.db, created private to the user
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home))).isEqualTo("rwx------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("lychee.db")))).isEqualTo("rw-------");

      // $LYCHEE_DB wins over $LYCHEE_HOME
      Path db = dir.resolve("elsewhere").resolve("mem.db");
      Run other = serve(Map.of("LYCHEE_HOME", home.toString(), "LYCHEE_DB", db.toString()), "--port", Integer.toString(port));
      assertThat(other.exit()).isEqualTo(1);
      assertThat(other.err()).contains("SQLite store " + db);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db.getParent()))).isEqualTo("rwx------");
    }
  }

  @Test
  void aDatabasePathThatIsADirectoryIsOneLineAndExitOne() throws Exception {
    Path db = Files.createDirectories(dir.resolve("memory.db"));
    Run r = serve(Map.of(), "--port", "0", "--db", db.toString());
    assertThat(r.exit()).as(r.err()).isEqualTo(1);
    assertThat(r.errLines()).containsExactly("lychee serve: cannot open the memory at " + db + ": " + db
        + " is a directory, not a SQLite database file");
  }
}
