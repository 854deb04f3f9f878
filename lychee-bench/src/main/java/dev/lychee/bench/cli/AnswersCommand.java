package dev.lychee.bench.cli;

import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.qa.AnswerReplay;
import dev.lychee.bench.qa.QaCases;
import dev.lychee.bench.systems.SystemCatalog;
import dev.lychee.core.answer.ExtractiveAnswerGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lychee eval answers}: error analysis of the offline answerer. With {@code --data} it
 * recalls every LoCoMo question's evidence once (slow) and saves it to {@code --evidence}; without,
 * it reads the saved evidence. Either way it answers every question with the current tree's
 * extractive answerer (seconds), prints F1, exact match, abstention and the best-sentence bound per
 * category, and writes each question's outcome: answer, F1, the sentence it was cut from and the
 * evidence sentence with the best F1.
 */
@Command(name = "answers", mixinStandardHelpOptions = true,
    description = {"Offline answerer replay: per-question answers, F1, chosen and best sentence.",
        "With --data: recall once and save the evidence to --evidence; without: replay saved evidence."})
final class AnswersCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Spec CommandSpec spec;

  @Option(names = "--data", converter = DataFileConverter.class, description = "LoCoMo JSON file: recall its questions (as eval locomo --llm offline) "
      + "and save the evidence to --evidence first.")
  Path data;

  @Option(names = "--evidence", required = true, description = "Saved evidence (JSON lines): written with --data, read without.")
  Path evidence;

  @Option(names = "--dump", description = "Write each question's outcome here: JSON lines, or tab-separated columns "
      + "when the name ends in .tsv.")
  Path dump;

  @Option(names = "--compare", description = "An earlier --dump (JSON lines) of the same evidence: list the questions "
      + "whose F1 changed.")
  Path compare;

  @Option(names = "--limit", description = "With --data: only the first N conversations.")
  Integer limit;

  @Option(names = "--qa-k", defaultValue = "20", description = "Evidence items per question (default: ${DEFAULT-VALUE}, "
      + "as eval locomo --llm offline).")
  int k;

  @Override
  public Integer call() throws Exception {
    if (data != null) {
      List<LocomoConversation> conversations = LocomoLoader.load(data);
      if (limit != null) {
        if (limit < 1) {
          throw new ParameterException(spec.commandLine(), "--limit must be >= 1");
        }
        conversations = conversations.subList(0, Math.min(limit, conversations.size()));
      }
      SystemCatalog catalog = new SystemCatalog(parent.embedderFactory());
      AnswerReplay.saveEvidence(QaCases.locomo(conversations), catalog.embedder(), catalog::lycheeConfig, k, evidence,
          Progress.forCurrentProcess(System.err));
      System.out.println("evidence written to " + evidence);
    } else if (!Files.isRegularFile(evidence)) {
      throw new ParameterException(spec.commandLine(), "no saved evidence at " + evidence + " (save it with --data)");
    }
    List<AnswerReplay.Outcome> outcomes = AnswerReplay.replay(AnswerReplay.load(evidence), new ExtractiveAnswerGenerator());
    System.out.print(AnswerReplay.table(AnswerReplay.summarize(outcomes)));
    if (compare != null) {
      AnswerReplay.changes(AnswerReplay.loadOutcomes(compare), outcomes).forEach(System.out::println);
    }
    if (dump != null) {
      if (dump.getFileName().toString().endsWith(".tsv")) {
        AnswerReplay.writeTable(outcomes, dump);
      } else {
        AnswerReplay.writeOutcomes(outcomes, dump);
      }
      System.out.println("outcomes written to " + dump);
    }
    return 0;
  }
}
