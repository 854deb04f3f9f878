package dev.lychee.cli;

import dev.lychee.server.boot.LogLevelVariable;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lychee} command. Run through the {@code ./lychee} launcher at the repository root,
 * which builds what is missing first.
 */
@Command(
    name = "lychee",
    mixinStandardHelpOptions = true,
    version = "lychee 0.1.0-SNAPSHOT",
    description = {
        "Long-term memory for LLM agents.",
        "",
        "Raw turns are kept and embedded at once, grouped online into semantic segments, encoded into typed records with evidence nodes, and recalled by plan-guided multi-route search.",
        "",
        "Offline by default (BGE-small ONNX embedder, heuristic encoder, rule-based planner, extractive answers). Set LYCHEE_LLM=openai:<model> or ollama:<model> to use an LLM."},
    subcommands = {
        DemoCommand.class,
        IngestCommand.class,
        EncodeCommand.class,
        StatusCommand.class,
        RecallCommand.class,
        AskCommand.class,
        InspectCommand.class,
        ForgetCommand.class,
        dev.lychee.server.boot.ServeCommand.class,
        dev.lychee.server.boot.McpCommand.class,
        EvalHelpCommand.class,
        BenchHelpCommand.class,
        CommandLine.HelpCommand.class})
public final class LycheeCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  private static volatile Map<String, String> environment = System.getenv();

  public static void main(String[] args) {
    // before any logger exists: logback would take a misspelt level for DEBUG
    LogLevelVariable.applyBeforeLogging(System.err);
    System.exit(newCommandLine().execute(args));
  }

  /** The environment the commands read (the process environment; tests substitute their own). */
  static Map<String, String> environment() {
    return environment;
  }

  /** Runs with {@code env} as the environment until the returned handle is closed (tests). */
  static AutoCloseable withEnvironment(Map<String, String> env) {
    Map<String, String> before = environment;
    environment = Map.copyOf(env);
    return () -> environment = before;
  }

  /**
   * The configured command line (also used by tests). Exit codes: 0 ok, 1 a runtime failure
   * (nothing stored where asked, a provider error), 2 a usage error (unknown command or option,
   * a bad argument value). Expected failures print one {@code lychee: ...} line, no stack trace
   * ({@code LYCHEE_DEBUG=1} adds it).
   */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new LycheeCli());
    cl.setParameterExceptionHandler(LycheeCli::usageError);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      cmd.getErr().println("lychee: " + message(ex));
      if (environment().get("LYCHEE_DEBUG") != null) {
        ex.printStackTrace(cmd.getErr());
      }
      return ex instanceof IllegalArgumentException && !(ex instanceof UserError) ? 2 : 1;
    });
    return cl;
  }

  private static int usageError(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    if (ex instanceof CommandLine.UnmatchedArgumentException u && cmd.getParent() == null
        && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
      cmd.getErr().println("lychee: unknown command '" + u.getUnmatched().get(0) + "'; commands: "
          + String.join(", ", cmd.getSubcommands().keySet()) + " (see lychee --help)");
    } else {
      cmd.getErr().println("lychee: " + ex.getMessage());
      cmd.usage(cmd.getErr());
    }
    return CommandLine.ExitCode.USAGE;
  }

  /** The message of the failure, or of its cause when a wrapper adds nothing. */
  private static String message(Throwable ex) {
    Throwable t = ex;
    while (t.getMessage() == null && t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
