package dev.lychee.cli;

import picocli.CommandLine.Command;

/** Documents {@code ./lychee bench}, which the launcher runs from {@code lychee-bench}. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "JMH benches of the hot paths (exact vector top-k, RRF fusion, MMR selection, segment",
        "boundary scoring), run briefly. Module lychee-bench; the ./lychee launcher runs it."})
final class BenchHelpCommand implements Runnable {
  @Override
  public void run() {
    System.out.println("The JMH benches run from the launcher: ./lychee bench");
  }
}
