package dev.lychee.cli;

import dev.lychee.api.Answer;
import dev.lychee.api.Question;
import dev.lychee.core.Lychee;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Answers a question from a namespace's memory. */
@Command(name = "ask", mixinStandardHelpOptions = true,
    description = "Answer a question from memory (LLM answer when configured, else the best evidence sentence).")
final class AskCommand implements Callable<Integer> {
  @Mixin MemoryOptions memory = new MemoryOptions();

  @Mixin BudgetOption budget = new BudgetOption();

  @Parameters(index = "0", paramLabel = "NAMESPACE") String namespace;

  @Parameters(index = "1", paramLabel = "QUESTION") String question;

  @Option(names = {"-k", "--k"}, description = "Evidence items. Default: ${DEFAULT-VALUE}.") int k = 15;

  @Option(names = "--evidence", description = "Also print the evidence.") boolean showEvidence;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    budget.validate();
    if (k < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-k must be >= 1: " + k);
    }
    try (Lychee lychee = memory.open(System.out, MemoryOptions.Access.READ)) {
      MemoryOptions.requireNamespace(lychee.store(), namespace);
      Answer a = lychee.answer(budget.apply(new Question(namespace, question, k, null)));
      System.out.println(a.text());
      if (showEvidence) {
        new EvidencePrinter(lychee.store(), System.out).print(namespace, a.evidence(), budget.printLimit(k, a.evidence()));
        budget.printUsage(a.evidence(), System.out);
      }
      if (a.usage().total() > 0) {
        System.out.println("query tokens: " + a.usage().inputTokens() + " in, " + a.usage().outputTokens() + " out");
      }
      return 0;
    }
  }
}
