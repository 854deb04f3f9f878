package dev.lychee.cli;

import dev.lychee.api.Forgotten;
import dev.lychee.core.Lychee;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Deletes a namespace, or one session of it. */
@Command(name = "forget", mixinStandardHelpOptions = true,
    description = "Delete a namespace (or one --session of it): turns, segments, records, nodes and vectors.")
final class ForgetCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Parameters(index = "0", paramLabel = "NAMESPACE") String namespace;

  @Option(names = "--session", paramLabel = "ID", description = "Only this session.") String session;

  @Override
  public Integer call() {
    try (Lychee lychee = memory.open(System.out, MemoryOptions.Access.READ)) {
      MemoryOptions.requireNamespace(lychee.store(), namespace);
      if (session != null) {
        MemoryOptions.requireSession(lychee.store(), namespace, session);
      }
      Forgotten f = session == null ? lychee.forget(namespace) : lychee.forget(namespace, session);
      System.out.printf("removed %d turns, %d records, %d evidence nodes%n",
          f.turnIds().size(), f.recordIds().size(), f.nodeIds().size());
      return 0;
    }
  }
}
