package dev.lychee.cli;

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

  public static void main(String[] args) {
    System.exit(newCommandLine().execute(args));
  }

  /** The configured command line (also used by tests). */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new LycheeCli());
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      cmd.getErr().println("lychee: " + ex.getMessage());
      if (System.getenv("LYCHEE_DEBUG") != null) {
        ex.printStackTrace(cmd.getErr());
      }
      return 2;
    });
    return cl;
  }
}
