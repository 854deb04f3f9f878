package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs the Node scripts of {@code src/test/js} (installed into {@code target/js} by the build).
 * Without an installed project the tests are skipped on a developer machine, and fail under
 * {@code CI=true}, so that CI can never pass without them.
 */
final class NodeClients {
  static final Path DIR = Path.of("target", "js").toAbsolutePath();

  private NodeClients() {}

  static void requireInstalled() {
    boolean ok = Files.isDirectory(DIR.resolve("node_modules/mem0ai")) && Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/sdk"));
    if (!ok && "true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new AssertionError("CI=true but the npm test project is not installed in " + DIR
          + ": install node and npm (the build runs 'npm ci' there)");
    }
    Assumptions.assumeTrue(ok, "npm test project not installed in " + DIR + " (build with npm available)");
  }

  /** Runs {@code node <script> args...} with {@code env}; returns stdout; fails with stderr on a non-zero exit. */
  static String run(String script, Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of("node", DIR.resolve(script).toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(DIR.toFile());
    Path home = Files.createTempDirectory("lychee-node-home");
    Path out = Files.createTempFile("node-out", ".txt");
    Path err = Files.createTempFile("node-err", ".txt");
    try {
      pb.environment().put("HOME", home.toString());
      pb.environment().put("MEM0_TELEMETRY", "false"); // never let the client call home
      pb.environment().putAll(env);
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      boolean done = p.waitFor(120, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String stdout = Files.readString(out, StandardCharsets.UTF_8);
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      assertThat(done).as("node %s finished in time; stderr: %s", script, stderr).isTrue();
      assertThat(p.exitValue()).as("node %s exit code; stdout: %s stderr: %s", script, stdout, stderr).isZero();
      return stdout;
    } finally {
      // the client may leave files under its HOME (a config directory): nothing stays in the temp dir
      deleteQuietly(home);
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  /** Deletes a file or a directory tree; a failure here must not hide the run's own result. */
  private static void deleteQuietly(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // left for the OS's temp cleaning
    }
  }
}
