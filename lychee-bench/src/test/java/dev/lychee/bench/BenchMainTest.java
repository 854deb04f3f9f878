package dev.lychee.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchMainTest {
  @TempDir Path dir;

  private String run(boolean debug, String... args) {
    StringWriter err = new StringWriter();
    CommandLine cl = BenchMain.newCommandLine(new EvalCommand(HashingEmbedder::new), debug);
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return code + "|" + err;
  }

  @Test
  void aFailedRunPrintsOneLineAndExitsWithOne() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"not\": \"a list\"}");
    String out = run(false, "locomo", "--data", bad.toString(), "--systems", "bm25");
    assertThat(out).startsWith("1|lychee eval: a LoCoMo file is a JSON list of samples")
        .contains("LYCHEE_DEBUG=1").doesNotContain("\tat ");
  }

  @Test
  void debugAddsTheStackTrace() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"not\": \"a list\"}");
    String out = run(true, "locomo", "--data", bad.toString(), "--systems", "bm25");
    assertThat(out).startsWith("1|lychee eval: ").contains("\tat ");
  }
}
