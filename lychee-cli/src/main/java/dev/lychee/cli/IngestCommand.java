package dev.lychee.cli;

import dev.lychee.core.ingest.IngestResult;
import dev.lychee.api.SegmentState;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.MemoryStatus;
import java.time.Duration;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Ingests a conversation file into a namespace. */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = {"Ingest a conversation file into a namespace.", "",
        "Format: {\"sessions\":[{\"id\":\"s1\",\"date\":\"2024-03-04T19:20\",\"turns\":[[\"speaker\",\"text\"],...]}]}. Each session is flushed at its end; re-ingesting the same file is idempotent."})
final class IngestCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Parameters(index = "0", paramLabel = "NAMESPACE", description = "The namespace (user, agent or tenant).")
  String namespace;

  @Option(names = "--data", required = true, paramLabel = "FILE", description = "The conversation file.")
  Path data;

  @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long to wait for background encoding (LLM encoder) to finish, 0..86400. Default: ${DEFAULT-VALUE}.")
  long waitSeconds;

  @Spec CommandLine.Model.CommandSpec spec;

  /** The longest --wait of ingest and encode: a day (a larger value overflowed, after the whole ingest). */
  static final long MAX_WAIT_SECONDS = 86_400;

  @Override
  public Integer call() {
    if (waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--wait must be between 0 and " + MAX_WAIT_SECONDS + " seconds: " + waitSeconds);
    }
    memory.validate();
    ConversationFile file = ConversationFile.read(data);
    file.skipped().forEach(w -> System.err.println("lychee: warning: " + w));
    long t0 = System.nanoTime();
    try (Lychee lychee = memory.open(System.out, MemoryOptions.Access.CREATE, true)) {
      IngestResult total = IngestResult.EMPTY;
      int n = 0;
      for (ConversationFile.Session s : file.sessions()) {
        total = total.plus(lychee.append(namespace, s.id(), s.date(), s.turns()));
        total = total.plus(lychee.flush(namespace, s.id()));
        System.out.printf(Locale.ROOT, "  session %s (%d/%d): %d turns%n", s.id(), ++n, file.sessions().size(), s.turns().size());
      }
      if (total.segmentsQueued() > 0) {
        System.out.printf(Locale.ROOT, "  waiting for %d segments to be encoded in the background...%n", total.segmentsQueued());
      }
      boolean idle = lychee.awaitIdle(namespace, Duration.ofSeconds(waitSeconds));
      MemoryStatus status = lychee.status(namespace);
      System.out.printf(Locale.ROOT, "Stored %d new turns; %d segments closed, %d encoded in all (%d records); %.1f s%n",
          total.turnsStored(), total.segmentsClosed(), status.segments(SegmentState.ENCODED),
          lychee.store().records(namespace).size(), (System.nanoTime() - t0) / 1e9);
      if (!idle) {
        System.out.printf(Locale.ROOT, "stopped waiting after %d s (--wait); the rest stays pending%n", waitSeconds);
      }
      if (total.usage().total() > 0) {
        System.out.printf(Locale.ROOT, "LLM construction tokens: %d in, %d out%n", total.usage().inputTokens(), total.usage().outputTokens());
      }
      if (!file.skipped().isEmpty()) {
        System.out.printf(Locale.ROOT, "Skipped %d turn%s that could not be stored (see the warnings above)%n",
            file.skipped().size(), file.skipped().size() == 1 ? "" : "s");
      }
      int left = PendingSummary.print(status, System.out);
      return left == 0 ? 0 : 1;
    }
  }
}
