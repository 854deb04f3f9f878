package dev.lychee.cli;

import picocli.CommandLine.Command;

/** Documents {@code ./lychee bench}, which the launcher runs from {@code lychee-bench}. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "JMH benches of the hot paths, run briefly (module lychee-bench).", "",
        "Exact vector top-k, RRF fusion, MMR selection and segment boundary scoring; the ./lychee launcher runs them."})
final class BenchHelpCommand implements Runnable {
  @Override
  public void run() {
    System.out.println("The JMH benches run from the launcher: ./lychee bench");
  }
}
