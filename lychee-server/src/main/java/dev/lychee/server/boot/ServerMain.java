package dev.lychee.server.boot;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Main class of the runnable jar: {@code java -jar lychee-server-<version>-runnable.jar [serve|mcp] [options]} (serve by default). */
@Command(name = "lychee-server", mixinStandardHelpOptions = true, version = "lychee-server 0.1.0-SNAPSHOT",
    description = "Lychee as a service.", subcommands = {ServeCommand.class, McpCommand.class})
public final class ServerMain implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.err);
  }

  /** The runnable jar's logging configuration (logback), used unless the user names another. */
  static final String LOGGING = "dev/lychee/server/logback-server.xml";

  public static void main(String[] args) {
    LogLevelVariable.applyBeforeLogging(System.err);
    // before any logger exists; the jar ships logback, but never as logback.xml (see the resource)
    if (System.getProperty("logback.configurationFile") == null && ServerMain.class.getClassLoader().getResource(LOGGING) != null) {
      System.setProperty("logback.configurationFile", LOGGING);
    }
    CommandLine cl = new CommandLine(new ServerMain());
    // a usage error is one line naming the problem, not the whole help text
    cl.setParameterExceptionHandler((ex, rest) -> {
      ex.getCommandLine().getErr().println("lychee: " + ex.getMessage() + " (see " + ex.getCommandLine().getCommandName()
          + " --help)");
      return CommandLine.ExitCode.USAGE;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      cmd.getErr().println("lychee: " + ServeCommand.rootMessage(ex));
      return 1;
    });
    String[] effective = args.length == 0 || args[0].startsWith("--") && !args[0].equals("--help") && !args[0].equals("--version")
        ? prepend("serve", args) : args;
    System.exit(cl.execute(effective));
  }

  private static String[] prepend(String first, String[] rest) {
    String[] out = new String[rest.length + 1];
    out[0] = first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }
}
