package dev.lychee.cli;

import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.llm.O200kTokenCounter;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The {@code --budget} option of {@code ask} and {@code recall}: a token budget for the evidence. */
final class BudgetOption {
  @Spec(Spec.Target.MIXEE) CommandSpec spec;

  @Option(names = "--budget", paramLabel = "TOKENS",
      description = "Token budget for the evidence (" + Question.MIN_TOKEN_BUDGET + ".." + Question.MAX_TOKEN_BUDGET
          + "): evidence is chosen to fit it, counted as the answer prompt shows it (o200k); -k is then the least "
          + "search depth.")
  Integer budget;

  /** Checks the value before anything is opened: a bad budget is a usage error (exit 2). */
  void validate() {
    if (budget != null && (budget < Question.MIN_TOKEN_BUDGET || budget > Question.MAX_TOKEN_BUDGET)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--budget must be between "
          + Question.MIN_TOKEN_BUDGET + " and " + Question.MAX_TOKEN_BUDGET + " tokens: " + budget);
    }
  }

  /** The question with the budget, if one was given. */
  Question apply(Question q) {
    return budget == null ? q : q.withTokenBudget(budget);
  }

  /** How many items to print: all of them under a budget (the budget sized the list), else k. */
  int printLimit(int k, List<Evidence> evidence) {
    return budget == null ? k : evidence.size();
  }

  /** One line with the evidence's size against the budget, when there is one. */
  void printUsage(List<Evidence> evidence, PrintStream out) {
    if (budget != null) {
      int used = new EvidenceTokens(new O200kTokenCounter()).count(evidence);
      out.printf("evidence: %d item%s, %d of %d tokens%n", evidence.size(), evidence.size() == 1 ? "" : "s", used,
          budget);
    }
  }
}
