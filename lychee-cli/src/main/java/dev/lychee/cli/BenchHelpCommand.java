package dev.lychee.cli;

import picocli.CommandLine.Command;

/** Documents {@code ./lychee bench}, which the launcher runs from {@code lychee-bench}. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "JMH benches of the hot paths, run briefly (module lychee-bench).", "",
        "The ./lychee launcher runs them:",
        "  bench [REGEX] [-prof NAME]...",
        "REGEX picks the benches by name (default: all), -prof adds a JMH profiler (-prof gc: bytes allocated per operation).",
        "Run './lychee bench --help' for more."})
final class BenchHelpCommand implements Runnable {
  @Override
  public void run() {
    System.out.println("The JMH benches run from the launcher: ./lychee bench");
  }
}
