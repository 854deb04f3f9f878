package dev.lychee.bench.cli;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH benches of {@code dev.lychee.bench.jmh} briefly: one fork, one warm-up and two
 * measurement iterations of one second each. Good for ratios and regressions on this machine, not
 * for publication-grade numbers (raise the counts for that).
 */
public final class JmhLauncher {
  private JmhLauncher() {}

  /** Runs the benches whose names match {@code args[0]} (default: all of them). */
  public static int run(String[] args) throws Exception {
    String include = args.length > 0 ? args[0] : "dev\\.lychee\\.bench\\.jmh\\..*";
    Options options = new OptionsBuilder()
        .include(include)
        .forks(1)
        .warmupIterations(1)
        .warmupTime(TimeValue.seconds(1))
        .measurementIterations(2)
        .measurementTime(TimeValue.seconds(1))
        .build();
    new Runner(options).run();
    return 0;
  }
}
