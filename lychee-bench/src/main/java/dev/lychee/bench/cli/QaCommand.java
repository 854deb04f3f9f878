package dev.lychee.bench.cli;

import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.qa.Checkpoints;
import dev.lychee.bench.qa.ModelSpec;
import dev.lychee.bench.qa.QaCase;
import dev.lychee.bench.qa.QaDryRun;
import dev.lychee.bench.qa.QaModels;
import dev.lychee.bench.qa.QaReport;
import dev.lychee.bench.qa.QaResult;
import dev.lychee.bench.qa.QaRunner;
import dev.lychee.bench.qa.QaVariant;
import dev.lychee.bench.systems.CachingEmbedder;
import dev.lychee.bench.systems.SystemCatalog;
import dev.lychee.core.llm.O200kTokenCounter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Runs the LLM-judged mode of {@code eval locomo} and {@code eval longmemeval}. */
final class QaCommand {
  private QaCommand() {}

  /**
   * @param conversations the LoCoMo conversations behind {@code cases} for the dry run's segment
   *     census (null for LongMemEval, whose census is not estimated by segments per conversation)
   * @return the exit code: 0, or 1 when a case failed
   */
  static int run(QaOptions o, CommandSpec spec, EvalCommand parent, String dataset, List<QaCase> cases,
      List<LocomoConversation> conversations, Path json, Path report) throws IOException {
    ModelSpec llm;
    ModelSpec judge;
    List<QaVariant> variants;
    try {
      if (o.k < 1) {
        throw new IllegalArgumentException("--qa-k must be >= 1");
      }
      if (o.concurrency < 1) {
        throw new IllegalArgumentException("--concurrency must be >= 1");
      }
      if (o.questions != null && o.questions < 1) {
        throw new IllegalArgumentException("--questions must be >= 1");
      }
      llm = o.offline() ? null : ModelSpec.parse(o.llm);
      judge = o.judge != null ? ModelSpec.parse(o.judge) : llm;
      variants = QaVariant.parse(o.variants);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (o.questions != null) {
      cases = cases.stream().map(c -> c.limitQuestions(o.questions)).toList();
    }
    Embedder embedder = parent.embedderFactory().get();
    Progress progress = Progress.forCurrentProcess(System.err);
    if (o.dryRun) {
      if (conversations == null) {
        throw new IllegalArgumentException("--dry-run estimates LoCoMo runs only");
      }
      // the segment census of each segmenter embeds the same exchanges: embed each once
      List<QaDryRun.Estimate> e = new QaDryRun(new CachingEmbedder(embedder), new O200kTokenCounter(), progress)
          .estimate(conversations, cases, variants, o.k);
      System.out.print(QaDryRun.table(e));
      return 0;
    }
    Map<String, String> env = parent.environment();
    ChatModel system = llm == null ? null : llm.create(env);
    ChatModel grader = judge == null ? null : judge.equals(llm) ? system : judge.create(env);
    Path checkpointDir = o.checkpoints != null ? o.checkpoints
        : o.cache == null ? null
        : o.cache.resolve("checkpoints").resolve(safe(dataset + "-" + name(llm) + "-" + name(judge) + "-k" + o.k));
    SystemCatalog catalog = new SystemCatalog(() -> embedder);
    QaRunner runner = new QaRunner(new QaModels(system, grader, o.cache), catalog.embedder(), catalog::lycheeConfig,
        o.k, o.concurrency, checkpointDir == null ? null : new Checkpoints(checkpointDir), progress);
    if (checkpointDir != null) {
      System.err.println("checkpoints: " + checkpointDir + " (finished conversations there are not run again)");
    }
    QaResult result = runner.run(variants, cases);
    System.out.println();
    System.out.print(QaReport.table(result));
    if (json != null) {
      AtomicFiles.write(json, QaReport.json(dataset, name(llm), name(judge), result));
      System.out.println("JSON written to " + json);
    }
    if (report != null) {
      AtomicFiles.write(report.resolve(QaReport.CHART_FILE), QaReport.svg(result));
      AtomicFiles.write(report.resolve("qa.md"), QaReport.markdown(dataset, name(llm), name(judge), result));
      System.out.println("report written to " + report.resolve("qa.md"));
    }
    return result.failures().isEmpty() ? 0 : 1;
  }

  private static String name(ModelSpec m) {
    return m == null ? "none" : m.toString();
  }

  private static String safe(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "_");
  }
}
