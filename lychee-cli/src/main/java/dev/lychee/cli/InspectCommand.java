package dev.lychee.cli;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.Lychee;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Shows what a namespace holds: sessions, segments with why they closed, records, nodes. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = {"Show what a namespace holds.", "",
        "Counts, every segment with its close reason, score and probability, and (with --records) its records."})
final class InspectCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Parameters(index = "0", paramLabel = "NAMESPACE", arity = "0..1",
      description = "Namespace to inspect; without it, list the namespaces.") String namespace;

  @Option(names = "--records", description = "List records too (at most --limit).") boolean records;

  @Option(names = "--limit", description = "Rows per list. Default: ${DEFAULT-VALUE}.") int limit = 50;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (limit < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be >= 0: " + limit);
    }
    try (Lychee lychee = memory.open(System.out, MemoryOptions.Access.READ)) {
      RecordStore store = lychee.store();
      if (namespace == null) {
        store.namespaces().forEach(ns -> System.out.printf("%s  (%d turns)%n", ns, store.countTurns(ns)));
        return 0;
      }
      MemoryOptions.requireNamespace(store, namespace);
      List<StoredSegment> segments = store.segments(namespace);
      List<MemoryRecord> all = store.records(namespace);
      System.out.printf(Locale.ROOT, "namespace %s: %d sessions, %d turns, %d segments, %d records%n", namespace,
          store.sessions(namespace).size(), store.countTurns(namespace), segments.size(), all.size());
      for (NodeKind kind : NodeKind.values()) {
        System.out.printf(Locale.ROOT, "  %-12s nodes: %d%n", kind.wireName(), store.nodes(namespace, kind).size());
      }
      System.out.println("segments (id, turns, state, close reason, score, p):");
      segments.stream().limit(limit).forEach(s -> System.out.printf(Locale.ROOT, "  %-14s %3d %-8s %-24s %7.3f %6.3f%s%n",
          s.segment().id(), s.segment().turns().size(), s.state(), s.segment().reason(), s.segment().score(),
          s.segment().probability(), s.error() == null ? "" : "  error: " + s.error()));
      if (records) {
        System.out.println("records:");
        all.stream().limit(limit).forEach(r -> System.out.printf(Locale.ROOT, "  [%s] %s  (turns %s; entities %s; tags %s; time %s)%n",
            r.type().wireName(), r.text(), r.evidence(), r.entities(), r.tags(),
            r.temporal().span() == null ? "-" : r.temporal().span()));
      }
      return 0;
    }
  }
}
