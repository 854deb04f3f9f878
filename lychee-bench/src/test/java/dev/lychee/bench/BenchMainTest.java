package dev.lychee.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * picocli formats every help line with {@code String.format} and, when a line is not a valid
   * format (a bare percent sign), prints a warning on stderr instead of the help (round twenty-six:
   * {@code eval speed --help}). Every command's usage renders without one.
   */
  @Test
  void everyCommandsHelpRendersWithoutAFormatWarning() {
    List<String> warned = new ArrayList<>();
    collectHelpWarnings(BenchMain.newCommandLine(new EvalCommand(HashingEmbedder::new), false), warned);
    assertThat(warned).isEmpty();
  }

  private static void collectHelpWarnings(CommandLine cl, List<String> warned) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream before = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      assertThat(cl.getUsageMessage(CommandLine.Help.Ansi.OFF)).isNotBlank();
    } finally {
      System.setErr(before);
    }
    if (!err.toString(StandardCharsets.UTF_8).isEmpty()) {
      warned.add(cl.getCommandSpec().qualifiedName() + ": " + err.toString(StandardCharsets.UTF_8));
    }
    cl.getSubcommands().values().forEach(sub -> collectHelpWarnings(sub, warned));
  }
}
