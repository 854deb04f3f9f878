package dev.lychee.cli;

import dev.lychee.core.IngestResult;
import dev.lychee.core.Lychee;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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

  @Override
  public Integer call() {
    ConversationFile file = ConversationFile.read(data);
    file.skipped().forEach(w -> System.err.println("lychee: warning: " + w));
    long t0 = System.nanoTime();
    try (Lychee lychee = memory.open(System.out, MemoryOptions.Access.CREATE)) {
      IngestResult total = IngestResult.EMPTY;
      int n = 0;
      for (ConversationFile.Session s : file.sessions()) {
        total = total.plus(lychee.append(namespace, s.id(), s.date(), s.turns()));
        total = total.plus(lychee.flush(namespace, s.id()));
        System.out.printf(Locale.ROOT, "  session %s (%d/%d): %d turns%n", s.id(), ++n, file.sessions().size(), s.turns().size());
      }
      System.out.printf(Locale.ROOT, "Stored %d new turns; %d segments encoded, %d records, %d nodes; %.1f s%n",
          total.turnsStored(), total.segmentsEncoded(), total.recordsWritten(), total.nodesWritten(),
          (System.nanoTime() - t0) / 1e9);
      if (total.usage().total() > 0) {
        System.out.printf(Locale.ROOT, "LLM construction tokens: %d in, %d out%n", total.usage().inputTokens(), total.usage().outputTokens());
      }
      if (!file.skipped().isEmpty()) {
        System.out.printf(Locale.ROOT, "Skipped %d turn%s that could not be stored (see the warnings above)%n",
            file.skipped().size(), file.skipped().size() == 1 ? "" : "s");
      }
      total.errors().forEach(e -> System.out.println("  pending: " + e));
      return total.errors().isEmpty() ? 0 : 1;
    }
  }
}
