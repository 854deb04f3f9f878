package dev.lychee.bench.qa;

import dev.lychee.bench.cli.EvalCommand;
import dev.lychee.core.testing.HashingEmbedder;
import picocli.CommandLine;

/** {@code eval} in a child JVM with the tests' deterministic embedder, for the kill-and-resume test. */
public final class QaChildMain {
  private QaChildMain() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new EvalCommand(HashingEmbedder::new)).execute(args));
  }
}
