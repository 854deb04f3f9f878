package dev.lychee.bench;

import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.bench.cli.JmhLauncher;
import java.nio.file.NoSuchFileException;
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
    return newCommandLine(new EvalCommand(), System.getenv("LYCHEE_DEBUG") != null).execute(rest);
  }

  /**
   * The harness's command line. A failing run prints one {@code lychee eval: ...} line and exits
   * with 1; {@code debug} (the {@code LYCHEE_DEBUG} environment variable) adds the stack trace. A
   * file that is not there is named as such rather than by the exception's class.
   */
  static CommandLine newCommandLine(EvalCommand eval, boolean debug) {
    CommandLine cl = new CommandLine(eval);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      cmd.getErr().println("lychee eval: " + message(ex));
      if (debug) {
        ex.printStackTrace(cmd.getErr());
      }
      return CommandLine.ExitCode.SOFTWARE;
    });
    return cl;
  }

  private static String message(Throwable ex) {
    Throwable t = ex;
    while (t.getMessage() == null && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof NoSuchFileException missing) {
      return "no such file: " + missing.getFile();
    }
    String text = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return text + " (LYCHEE_DEBUG=1 prints the stack trace)";
  }
}
