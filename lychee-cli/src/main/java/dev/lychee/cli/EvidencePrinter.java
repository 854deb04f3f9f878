package dev.lychee.cli;

import dev.lychee.api.Evidence;
import dev.lychee.api.RawTurn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import java.io.PrintStream;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** Prints evidence items as one readable block each: rank, score, kind, date, speaker, text. */
final class EvidencePrinter {
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT);
  private static final int MAX_TEXT = 220;

  private final RecordStore store;
  private final PrintStream out;

  EvidencePrinter(RecordStore store, PrintStream out) {
    this.store = store;
    this.out = out;
  }

  void print(String namespace, List<Evidence> evidence, int limit) {
    if (evidence.isEmpty()) {
      out.println("    (no evidence)");
      return;
    }
    // best first: the pipeline's order is its selection order (diversity), not its score order
    List<Evidence> byScore = evidence.stream()
        .sorted(java.util.Comparator.comparingDouble(Evidence::score).reversed()).toList();
    int position = 0;
    for (Evidence e : byScore.subList(0, Math.min(limit, byScore.size()))) {
      position++;
      var c = e.candidate();
      String date = c.mentionedAt() == null ? "????-??-??" : DATE.format(c.mentionedAt());
      String speaker = speaker(namespace, c.turns());
      String kind = c.kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
      String text = c.text().replace('\n', ' ');
      if (text.length() > MAX_TEXT) {
        text = text.substring(0, MAX_TEXT - 3) + "...";
      }
      out.printf(Locale.ROOT, "    %2d. %.3f  %-8s %s  %-8s %s%n", position, e.score(), kind, date, speaker, text);
    }
  }

  private String speaker(String namespace, List<TurnRef> turns) {
    if (turns.isEmpty()) {
      return "-";
    }
    return store.turn(namespace, turns.get(0)).map(RawTurn::speaker).filter(s -> s != null).orElse("-");
  }
}
