package dev.lychee.bench;

import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.bench.cli.JmhLauncher;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * Entry point of the launcher: {@code ./lychee eval ...} runs {@link EvalCommand}, {@code ./lychee
 * bench [regex]} runs the JMH benches briefly ({@link JmhLauncher}).
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args));
  }

  /** Runs one command line and returns its exit code. */
  public static int run(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("bench")) {
      return JmhLauncher.run(Arrays.copyOfRange(args, 1, args.length));
    }
    String[] rest = args.length > 0 && args[0].equals("eval") ? Arrays.copyOfRange(args, 1, args.length) : args;
    return new CommandLine(new EvalCommand()).execute(rest);
  }
}
