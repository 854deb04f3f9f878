package dev.lychee.cli;

import dev.lychee.api.SegmentState;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.MemoryStatus;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** Prints the write-side state of a namespace. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = {"Show a namespace's turns, segments by state, what waits for encoding and the last error.",
        "", "Exit codes: 0 nothing pending, 1 segments are pending (or no such store or namespace), 2 usage error."})
final class StatusCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Parameters(index = "0", paramLabel = "NAMESPACE", description = "The namespace.")
  String namespace;

  @Override
  public Integer call() {
    try (Lychee lychee = memory.open(System.err)) {
      // a misspelt name would report "0 turns", exit 0: a monitoring script's false all-clear
      MemoryOptions.requireNamespace(lychee.store(), namespace);
      MemoryStatus s = lychee.status(namespace);
      System.out.printf(Locale.ROOT, "namespace %s: %d turns%n", namespace, s.turns());
      if (s.turnsWithoutVectors() > 0) {
        System.out.printf(Locale.ROOT, "turns without a vector: %d (`lychee encode --pending %s` embeds them again)%n",
            s.turnsWithoutVectors(), namespace);
      }
      System.out.printf(Locale.ROOT, "segments: %d encoded, %d pending, %d failed%n", s.segments(SegmentState.ENCODED),
          s.segments(SegmentState.PENDING), s.segments(SegmentState.FAILED));
      if (s.queued() > 0) {
        System.out.printf(Locale.ROOT, "queued in this process: %d%n", s.queued());
      }
      s.oldestPendingAge().ifPresent(a -> System.out.printf(Locale.ROOT, "oldest pending: %d s%n", a.toSeconds()));
      s.lastError().ifPresent(e -> System.out.println("last error: " + firstLine(e)));
      int left = PendingSummary.print(s, System.out);
      return left == 0 ? 0 : 1;
    }
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
