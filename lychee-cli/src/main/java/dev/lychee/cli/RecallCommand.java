package dev.lychee.cli;

import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.core.Lychee;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Prints the evidence Lychee recalls for a question. */
@Command(name = "recall", mixinStandardHelpOptions = true,
    description = "Recall evidence for a question (no answer generation).")
final class RecallCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Mixin BudgetOption budget = new BudgetOption();

  @Parameters(index = "0", paramLabel = "NAMESPACE") String namespace;

  @Parameters(index = "1", paramLabel = "QUESTION") String question;

  @Option(names = {"-k", "--k"}, description = "Evidence items. Default: ${DEFAULT-VALUE}.") int k = 10;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    budget.validate();
    if (k < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-k must be >= 1: " + k);
    }
    try (Lychee lychee = memory.open(System.out, MemoryOptions.Access.READ)) {
      MemoryOptions.requireNamespace(lychee.store(), namespace);
      Recall r = lychee.recall(budget.apply(new Question(namespace, question, k, null)));
      System.out.printf(Locale.ROOT, "plan: %s, routes %s; %.1f ms%n", r.plan().type().wireName(),
          r.plan().routes().stream().map(x -> x.id() + "=" + x.queries()).toList(), r.elapsedNanos() / 1e6);
      new EvidencePrinter(lychee.store(), System.out).print(namespace, r.evidence(), budget.printLimit(k, r.evidence()));
      budget.printUsage(r.evidence(), System.out);
      return 0;
    }
  }
}
