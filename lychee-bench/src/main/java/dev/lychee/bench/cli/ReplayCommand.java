package dev.lychee.bench.cli;

import dev.lychee.bench.harness.LocomoResult;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.ReplayVariant;
import dev.lychee.bench.harness.ResultTable;
import dev.lychee.bench.harness.StageReplay;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.metrics.EvidenceScorer;
import dev.lychee.bench.metrics.MetricSummary;
import dev.lychee.bench.metrics.SystemResult;
import dev.lychee.core.llm.O200kTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code lychee eval replay}: Lychee's LoCoMo recalls captured once and their later stages (route
 * scoring, fusion, rerank, selection) re-run per setting ({@link StageReplay}).
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {"Captures Lychee's LoCoMo recalls once (as eval locomo --systems lychee) and re-runs route scoring,",
        "fusion, rerank and selection with each setting of --variants, one line each: name key=value ...",
        "(keys: ReplayVariant). Prints the captured run as 'live', then one row per setting and the eval locomo tables."})
final class ReplayCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, required = true, description = "LoCoMo JSON file (list of samples).")
  Path data;

  @Option(names = "--variants", required = true,
      description = "File of settings, one per line (name key=value ...); blank lines and # comments are skipped.")
  Path variants;

  @Option(names = "--k", defaultValue = "5,10,20", description = "Evidence depths (default: ${DEFAULT-VALUE}).")
  String ks;

  @Option(names = "--budgets", defaultValue = "500,1000,2000", description = "Token budgets B (default: ${DEFAULT-VALUE}).")
  String budgets;

  @Option(names = "--limit", description = "Only the first N conversations.")
  Integer limit;

  @Override
  public Integer call() throws Exception {
    List<ReplayVariant> settings = new ArrayList<>();
    for (String line : Files.readAllLines(variants)) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        settings.add(ReplayVariant.parse(l)); // a bad line fails before anything is ingested
      }
    }
    EvidenceScorer scorer = new EvidenceScorer(Csv.positiveInts(ks, "--k"), Csv.positiveInts(budgets, "--budgets"),
        new O200kTokenCounter());
    List<LocomoConversation> conversations = LocomoLoader.load(data);
    if (limit != null) {
      conversations = conversations.subList(0, Math.min(Math.max(limit, 1), conversations.size()));
    }
    List<SystemResult> rows = new ArrayList<>();
    try (StageReplay replay = new StageReplay(parent.embedderFactory().get(), scorer)) {
      replay.capture(conversations, Progress.forCurrentProcess(System.err));
      rows.add(print(replay.live("live"), scorer));
      for (ReplayVariant v : settings) {
        rows.add(print(replay.replay(v), scorer));
      }
    }
    int questions = conversations.stream().mapToInt(c -> c.questions().size()).sum();
    int skipped = conversations.stream().mapToInt(LocomoConversation::skipped).sum();
    System.out.println();
    System.out.print(ResultTable.locomo(new LocomoResult(questions, skipped, scorer.ks(), scorer.budgets(),
        rows)));
    return 0;
  }

  /** One line per setting as soon as it is scored: R@maxK, each R@Bb and C@Bb, R@Bb per category. */
  private static SystemResult print(SystemResult r, EvidenceScorer scorer) {
    MetricSummary o = r.overall();
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-24s R@%d %.3f", r.system(), scorer.maxK(),
        o.recall().get(scorer.maxK())));
    for (int b : scorer.budgets()) {
      sb.append(String.format(Locale.ROOT, " R@%dt %.3f", b, o.recallTokens().get(b)));
    }
    for (int b : scorer.budgets()) {
      sb.append(String.format(Locale.ROOT, " R@%db %.3f C %.3f", b, o.budgetRecall().get(b), o.budgetContained().get(b)));
    }
    r.byCategory().forEach((cat, m) -> {
      sb.append(" | c").append(cat);
      for (int b : scorer.budgets()) {
        sb.append(String.format(Locale.ROOT, " %.3f", m.budgetRecall().get(b)));
      }
    });
    System.out.println(sb);
    System.out.flush();
    return r;
  }
}
