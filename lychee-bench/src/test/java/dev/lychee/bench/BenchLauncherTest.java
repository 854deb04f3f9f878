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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./lychee bench} and the bare {@code ./lychee eval} as a user meets them: help, one-line
 * errors with exit codes, never a stack trace (round twenty-six: {@code bench --help} threw).
 */
class BenchLauncherTest {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  private static Run bench(boolean debug, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = BenchMain.bench(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), debug);
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void benchHelpPrintsTheUsage() {
    for (String help : new String[] {"--help", "-h"}) {
      Run r = bench(false, help);
      assertThat(r.exit()).as(help).isZero();
      assertThat(r.out()).as(help).startsWith("Usage: ./lychee bench [REGEX] [-prof NAME]...").contains("-prof gc");
      assertThat(r.err()).as(help).isEmpty();
    }
  }

  @Test
  void aBadBenchArgumentIsOneLineAndExitTwo() {
    Run missing = bench(false, "-prof");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err().lines()).containsExactly(
        "lychee bench: -prof needs a profiler name, for example -prof gc (see ./lychee bench --help)");
    Run unknown = bench(false, "--fast");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err().lines()).containsExactly(
        "lychee bench: unknown bench option --fast (only -prof NAME and --help) (see ./lychee bench --help)");
    Run two = bench(false, "Fusion", "Mmr");
    assertThat(two.exit()).isEqualTo(2);
    assertThat(two.err()).startsWith("lychee bench: one REGEX only: Fusion, Mmr");
    assertThat(missing.out() + unknown.out() + two.out()).isEmpty();
  }

  /** JMH refuses a regex that matches no bench before it forks anything: one line, exit 1. */
  @Test
  void aJmhFailureIsOneLineAndExitOne() {
    Run r = bench(false, "NoSuchBenchAnywhere");
    assertThat(r.exit()).as(r.err()).isEqualTo(1);
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).startsWith("lychee bench: No benchmarks to run; check the include/exclude regexps.")
        .contains("LYCHEE_DEBUG=1").doesNotContain("\tat ");
    Run debug = bench(true, "NoSuchBenchAnywhere");
    assertThat(debug.exit()).isEqualTo(1);
    assertThat(debug.err()).startsWith("lychee bench: ").contains("\tat ");
  }

  @Test
  void aBareEvalNamesEverySubcommand() {
    StringWriter err = new StringWriter();
    CommandLine cl = BenchMain.newCommandLine(new EvalCommand(HashingEmbedder::new), false);
    cl.setErr(new PrintWriter(err));
    assertThat(cl.execute()).isEqualTo(2);
    assertThat(cl.getSubcommands().keySet())
        .containsExactlyInAnyOrder("locomo", "segments", "speed", "longmemeval", "calibrate", "server", "answers", "replay");
    assertThat(err.toString()).contains("choose a subcommand: " + String.join(", ", cl.getSubcommands().keySet()));
  }

  /** README's "Commands" named five of the eight eval subcommands. */
  @Test
  void theReadmeNamesEveryEvalSubcommand() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    int start = readme.indexOf("\n## Commands\n");
    assertThat(start).isNotNegative();
    String commands = readme.substring(start, readme.indexOf("\n## ", start + 5));
    for (String name : BenchMain.newCommandLine(new EvalCommand(HashingEmbedder::new), false).getSubcommands().keySet()) {
      assertThat(commands).as(name).contains("`" + name + "`");
    }
  }

  @Test
  void aNegativeLongMemEvalLimitIsAUsageErrorBeforeTheDataIsRead() throws Exception {
    // not a LongMemEval file: the limit must fail before the loader would
    Path data = Files.writeString(dir.resolve("longmemeval_s.json"), "{}");
    StringWriter err = new StringWriter();
    CommandLine cl = BenchMain.newCommandLine(new EvalCommand(HashingEmbedder::new), false);
    cl.setErr(new PrintWriter(err));
    assertThat(cl.execute("longmemeval", "--data", data.toString(), "--limit", "-1")).isEqualTo(2);
    assertThat(err.toString()).startsWith("--limit must be >= 1: -1");
  }
}
