package dev.lychee.store.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A child JVM running a test main class on this JVM's class path, talked to line by line. */
final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;
  private final Writer in;

  private ChildJvm(Process process) {
    this.process = process;
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  static ChildJvm start(Class<?> main, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    return new ChildJvm(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
  }

  /** The child's next output line, or null at its end. */
  String readLine() throws IOException {
    return out.readLine();
  }

  /** Reads lines until one starts with {@code prefix}; fails at the end of output. */
  String await(String prefix) throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    throw new IllegalStateException("child ended before printing " + prefix);
  }

  void send(String line) throws IOException {
    in.write(line + "\n");
    in.flush();
  }

  /** SIGKILL: the child gets no chance to clean up. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  int waitFor(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("child did not finish within " + seconds + " s");
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
