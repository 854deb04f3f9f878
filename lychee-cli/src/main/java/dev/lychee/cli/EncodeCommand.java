package dev.lychee.cli;

import dev.lychee.api.SegmentState;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.ingest.MemoryStatus;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Encodes the segments of a namespace that are still pending. */
@Command(name = "encode", mixinStandardHelpOptions = true,
    description = {"Encode the segments of a namespace that are still pending (after an LLM outage, a missing key or a crash).",
        "", "Exit codes: 0 every segment is encoded, 1 some are still pending (one line per cause) or no such store or namespace, 2 usage error."})
final class EncodeCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Parameters(index = "0", paramLabel = "NAMESPACE", description = "The namespace.")
  String namespace;

  @Option(names = "--pending", required = true, description = "Encode the pending segments (required: the only mode for now).")
  boolean pending;

  @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long to wait for background encoding to finish, 1..86400. Default: ${DEFAULT-VALUE}.")
  long waitSeconds;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (waitSeconds < 1 || waitSeconds > IngestCommand.MAX_WAIT_SECONDS) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--wait must be between 1 and " + IngestCommand.MAX_WAIT_SECONDS + " seconds: " + waitSeconds);
    }
    try (Lychee lychee = memory.open(System.out)) {
      // a misspelt name would print "Encoded 0 segments", exit 0, as if the outage were repaired
      MemoryOptions.requireNamespace(lychee.store(), namespace);
      int before = lychee.status(namespace).segments(SegmentState.ENCODED);
      IngestResult r = lychee.encodePending(namespace);
      boolean idle = lychee.awaitIdle(namespace, Duration.ofSeconds(waitSeconds));
      MemoryStatus after = lychee.status(namespace);
      System.out.printf(Locale.ROOT, "Encoded %d segment%s of namespace %s%s%n", after.segments(SegmentState.ENCODED) - before,
          after.segments(SegmentState.ENCODED) - before == 1 ? "" : "s", namespace,
          idle ? "" : " (stopped waiting after " + waitSeconds + " s; the rest stays pending)");
      int left = PendingSummary.print(after, System.out);
      return left == 0 && r.ok() ? 0 : 1;
    }
  }
}
