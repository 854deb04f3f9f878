package dev.lychee.bench.cli;

import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.LocomoHarness;
import dev.lychee.bench.harness.LocomoResult;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.ResultJson;
import dev.lychee.bench.harness.ResultTable;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.metrics.EvidenceScorer;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.bench.report.MarkdownReport;
import dev.lychee.bench.report.RecallTokenChart;
import dev.lychee.bench.systems.EvalSystem;
import dev.lychee.bench.systems.LycheeSystem;
import dev.lychee.bench.systems.StoreChoice;
import dev.lychee.bench.systems.SystemCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import dev.lychee.bench.qa.QaCases;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code lychee eval locomo}: evidence recall of every system on a LoCoMo file (evaluation.md §2). */
@Command(name = "locomo", mixinStandardHelpOptions = true,
    description = {"LoCoMo evidence recall: recall@k, hit@k, tokens@k and recall@B tokens per system.",
        "With --llm: LLM-judged question answering (judge accuracy, F1, BLEU-1, construction and query tokens)."})
final class LocomoCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, required = true, description = "LoCoMo JSON file (list of samples).")
  Path data;

  @Option(names = "--systems", defaultValue = "lychee,bm25,dense,hybrid",
      description = "Comma-separated systems: lychee, bm25, dense, hybrid, lychee-record-only, "
          + "lychee-no-planner, lychee-no-fusion, lychee-no-raw (default: ${DEFAULT-VALUE}).")
  String systems;

  @Option(names = "--store", defaultValue = "memory",
      description = "Where lychee systems keep records and vectors: memory, sqlite, lucene (temporary files) or "
          + "postgres (LYCHEE_PG_URL); the results must not depend on it (default: ${DEFAULT-VALUE}).")
  String store;

  @Option(names = "--k", defaultValue = "5,10,20", description = "Evidence depths (default: ${DEFAULT-VALUE}).")
  String ks;

  @Option(names = "--budgets", defaultValue = "500,1000,2000", description = "Token budgets B (default: ${DEFAULT-VALUE}).")
  String budgets;

  @Option(names = "--depth", defaultValue = "100",
      description = "Items recalled per question, enough to fill the largest budget (default: ${DEFAULT-VALUE}).")
  int depth;

  @Option(names = "--lychee-k",
      description = "Depth lychee systems are asked for (default: the largest --k). Lychee's budgets and selection "
          + "pool grow with k, so a deeper recall is another configuration; raise it to let lychee fill the token budgets.")
  Integer lycheeK;

  @Option(names = "--mode", defaultValue = "budget",
      description = "prefix: recall@B only over the prefix of the k list that fits B (the first round's rule, every "
          + "system); budget: also ask lychee systems for evidence selected FOR each budget B and score exactly "
          + "that (the prefix columns stay). Default: ${DEFAULT-VALUE}.")
  String mode;

  @Option(names = "--json", description = "Write the result JSON here.")
  Path json;

  @Option(names = "--report", description = "Write a Markdown report and an SVG chart into this directory.")
  Path report;

  @Option(names = "--limit", description = "Evaluate only the first N conversations.")
  Integer limit;

  @Mixin QaOptions qa = new QaOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    List<Integer> kList = Csv.positiveInts(ks, "--k");
    boolean budgetMode = switch (mode.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "prefix" -> false;
      case "budget" -> true;
      default -> throw new IllegalArgumentException("--mode must be prefix or budget: " + mode);
    };
    EvidenceScorer scorer = new EvidenceScorer(kList, Csv.positiveInts(budgets, "--budgets"), new O200kTokenCounter());
    List<LocomoConversation> conversations = LocomoLoader.load(data);
    if (limit != null) {
      if (limit < 1) {
        throw new IllegalArgumentException("--limit must be >= 1");
      }
      conversations = conversations.subList(0, Math.min(limit, conversations.size()));
    }
    if (qa.enabled()) {
      return QaCommand.run(qa, spec, parent, data.getFileName().toString(), QaCases.locomo(conversations), conversations,
          json, report);
    }
    SystemCatalog catalog = new SystemCatalog(parent.embedderFactory())
        .store(StoreChoice.parse(store))
        .lycheeK(lycheeK == null ? scorer.maxK() : Math.max(lycheeK, scorer.maxK()));
    List<EvalSystem> list = catalog.create(Csv.names(systems));
    LocomoResult result;
    try {
      Progress progress = Progress.forCurrentProcess(System.err);
      int d = Math.max(depth, scorer.maxK());
      result = new LocomoHarness(scorer, d, progress, budgetMode).run(conversations, list);
    } finally {
      for (EvalSystem s : list) {
        if (s instanceof LycheeSystem l && !l.ingestErrors().isEmpty()) {
          System.err.println(l.name() + ": " + l.ingestErrors().size() + " ingest errors, first: " + l.ingestErrors().get(0));
        }
        s.close();
      }
    }
    System.out.println();
    System.out.print(ResultTable.locomo(result));
    if (json != null) {
      AtomicFiles.write(json, ResultJson.locomo(result));
      System.out.println("JSON written to " + json);
    }
    if (report != null) {
      AtomicFiles.write(report.resolve(MarkdownReport.CHART_FILE), RecallTokenChart.svg(result));
      AtomicFiles.write(report.resolve("locomo.md"), MarkdownReport.locomo(result, data.toString()));
      System.out.println("report written to " + report.resolve("locomo.md"));
    }
    return 0;
  }
}
