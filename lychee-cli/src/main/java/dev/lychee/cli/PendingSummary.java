package dev.lychee.cli;

import dev.lychee.core.ingest.MemoryStatus;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * Prints what is left to encode: one line per cause, never a stack trace per segment
 * ("11 segments left pending: OPENAI_API_KEY is not set ...; run `lychee encode --pending priya`").
 */
final class PendingSummary {
  private PendingSummary() {}

  /** @return how many segments are left pending */
  static int print(MemoryStatus status, PrintStream out) {
    int total = 0;
    for (Map.Entry<String, Integer> e : status.pendingByKind().entrySet()) {
      total += e.getValue();
      out.printf(Locale.ROOT, "%d segment%s left pending: %s; run `lychee encode --pending %s` when it is fixed%n",
          e.getValue(), e.getValue() == 1 ? "" : "s", e.getKey(), status.namespace());
    }
    return total;
  }
}
