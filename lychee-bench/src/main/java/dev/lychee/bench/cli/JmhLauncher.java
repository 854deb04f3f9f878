package dev.lychee.bench.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH benches of {@code dev.lychee.bench.jmh} briefly: one fork, one warm-up and two
 * measurement iterations of one second each. Good for ratios and regressions on this machine, not
 * for publication-grade numbers (raise the counts for that).
 *
 * <p>Every fork runs with {@code --add-modules jdk.incubator.vector}, so vector benches time the SIMD
 * dot-product kernel the way {@code ./lychee} runs it ({@code ExactVectorSearchBench} times the
 * scalar kernel beside it).
 *
 * <p>Arguments: {@code [regex] [-prof NAME]...}; {@code -prof gc} adds JMH's allocation profiler,
 * so every bench also reports {@code gc.alloc.rate.norm} (bytes allocated per operation).
 */
public final class JmhLauncher {
  private JmhLauncher() {}

  /** What {@code ./lychee bench --help} prints. */
  public static final String USAGE = String.join(System.lineSeparator(),
      "Usage: ./lychee bench [REGEX] [-prof NAME]...",
      "Runs the JMH benches of dev.lychee.bench.jmh briefly: one fork, one warm-up and two measurement",
      "iterations of one second each (ratios and regressions on this machine, not publication numbers).",
      "      REGEX        only the benches whose names match (default: all of them)",
      "      -prof NAME   add a JMH profiler, for example -prof gc (bytes allocated per operation);",
      "                   may be repeated",
      "  -h, --help       show this help and exit",
      "");

  /**
   * Runs the benches whose names match the first non-option argument (default: all of them), or
   * prints {@link #USAGE} to {@code out} for {@code -h}/{@code --help}.
   *
   * @return the exit code (0)
   * @throws IllegalArgumentException for an argument it does not take (a usage error)
   * @throws RunnerException when JMH fails (no bench matches, a fork failed, a profiler is unknown)
   */
  public static int run(String[] args, PrintStream out) throws RunnerException {
    Invocation inv = Invocation.parse(args);
    if (inv.help()) {
      out.print(USAGE);
      return 0;
    }
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(inv.include())
        .forks(1)
        .warmupIterations(1)
        .warmupTime(TimeValue.seconds(1))
        .measurementIterations(2)
        .measurementTime(TimeValue.seconds(1))
        .jvmArgsAppend("--add-modules", "jdk.incubator.vector");
    inv.profilers().forEach(options::addProfiler);
    new Runner(options.build()).run();
    return 0;
  }

  /** What the command line asks for: which benches, which JMH profilers ride along, or only the help. */
  record Invocation(String include, List<String> profilers, boolean help) {
    static final String ALL = "dev\\.lychee\\.bench\\.jmh\\..*";

    static Invocation parse(String[] args) {
      String include = null;
      List<String> profilers = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        if (args[i].equals("-h") || args[i].equals("--help")) {
          return new Invocation(ALL, List.of(), true);
        } else if (args[i].equals("-prof")) {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("-prof needs a profiler name, for example -prof gc");
          }
          profilers.add(args[++i]);
        } else if (args[i].startsWith("-")) {
          throw new IllegalArgumentException("unknown bench option " + args[i] + " (only -prof NAME and --help)");
        } else if (include != null) {
          throw new IllegalArgumentException("one REGEX only: " + include + ", " + args[i]
              + " (join them as A|B)");
        } else {
          include = args[i];
        }
      }
      return new Invocation(include == null ? ALL : include, List.copyOf(profilers), false);
    }
  }
}
