package dev.lychee.server.boot;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Main class of the runnable jar: {@code java -jar lychee-server.jar [serve|mcp] [options]} (serve by default). */
@Command(name = "lychee-server", mixinStandardHelpOptions = true, version = "lychee-server 0.1.0-SNAPSHOT",
    description = "Lychee as a service.", subcommands = {ServeCommand.class, McpCommand.class})
public final class ServerMain implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.err);
  }

  public static void main(String[] args) {
    CommandLine cl = new CommandLine(new ServerMain());
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
