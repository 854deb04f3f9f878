package dev.lychee.bench;

import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.bench.cli.JmhLauncher;
import dev.lychee.server.boot.LogLevelVariable;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * Entry point of the launcher: {@code ./lychee eval ...} runs {@link EvalCommand}, {@code ./lychee
 * bench [regex] [-prof NAME]...} runs the JMH benches briefly ({@link JmhLauncher}).
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    // before any logger exists: logback would take a misspelt level for DEBUG
    LogLevelVariable.applyBeforeLogging(System.err);
    System.exit(run(args));
  }

  /** Runs one command line and returns its exit code; a failure is one line on stderr, not an exception. */
  public static int run(String[] args) {
    boolean debug = System.getenv("LYCHEE_DEBUG") != null;
    if (args.length > 0 && args[0].equals("bench")) {
      return bench(Arrays.copyOfRange(args, 1, args.length), System.out, System.err, debug);
    }
    String[] rest = args.length > 0 && args[0].equals("eval") ? Arrays.copyOfRange(args, 1, args.length) : args;
    return newCommandLine(new EvalCommand(), debug).execute(rest);
  }

  /**
   * {@code ./lychee bench [REGEX] [-prof NAME]...}: the JMH benches ({@link JmhLauncher}). As with
   * {@code eval}, a failure is one {@code lychee bench: ...} line: exit 2 for a bad argument, 1 when
   * JMH fails ({@code debug} adds the stack trace).
   */
  static int bench(String[] args, PrintStream out, PrintStream err, boolean debug) {
    try {
      return JmhLauncher.run(args, out);
    } catch (IllegalArgumentException e) {
      err.println("lychee bench: " + e.getMessage() + " (see ./lychee bench --help)");
      return CommandLine.ExitCode.USAGE;
    } catch (Exception e) {
      err.println("lychee bench: " + message(e));
      if (debug) {
        e.printStackTrace(err);
      }
      return CommandLine.ExitCode.SOFTWARE;
    }
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
    // JMH's NoBenchmarksException has no message, only a toString() that says what is wrong
    String described = t.toString();
    String text = t.getMessage() != null ? t.getMessage()
        : described.equals(t.getClass().getName()) ? t.getClass().getSimpleName() : described;
    return text + " (LYCHEE_DEBUG=1 prints the stack trace)";
  }
}
