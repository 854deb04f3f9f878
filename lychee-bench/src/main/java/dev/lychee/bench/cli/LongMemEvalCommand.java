package dev.lychee.bench.cli;

import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.ResultJson;
import dev.lychee.bench.longmemeval.LongMemEvalHarness;
import dev.lychee.bench.longmemeval.LongMemEvalItem;
import dev.lychee.bench.longmemeval.LongMemEvalLoader;
import dev.lychee.bench.longmemeval.LongMemEvalResult;
import dev.lychee.bench.systems.EvalSystem;
import dev.lychee.bench.systems.SystemCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import dev.lychee.bench.qa.QaCases;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code lychee eval longmemeval}: LongMemEval's official retrieval metrics per system. */
@Command(name = "longmemeval", mixinStandardHelpOptions = true,
    description = "LongMemEval retrieval (recall_any/recall_all/ndcg_any@k at session and turn level; abstention questions skipped).")
final class LongMemEvalCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, required = true, description = "longmemeval_s.json (official format).")
  Path data;

  @Option(names = "--systems", defaultValue = "bm25,dense,hybrid", description = "Systems (default: ${DEFAULT-VALUE}).")
  String systems;

  @Option(names = "--k", defaultValue = "5,10", description = "Cut-offs (default: ${DEFAULT-VALUE}).")
  String ks;

  @Option(names = "--limit", description = "Evaluate only the first N questions.")
  Integer limit;

  @Option(names = "--json", description = "Write the result JSON here.")
  Path json;

  @Option(names = "--report", description = "With --llm: write a Markdown report and an SVG chart into this directory.")
  Path report;

  @Mixin QaOptions qa = new QaOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (limit != null && limit < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--limit must be >= 1: " + limit);
    }
    List<Integer> kList = Csv.positiveInts(ks, "--k");
    List<LongMemEvalItem> items = LongMemEvalLoader.load(data);
    if (limit != null) {
      items = items.subList(0, Math.min(limit, items.size()));
    }
    if (qa.enabled()) {
      return QaCommand.run(qa, spec, parent, data.getFileName().toString(), QaCases.longMemEval(items), null, json, report);
    }
    List<EvalSystem> list = new SystemCatalog(parent.embedderFactory()).create(Csv.names(systems));
    LongMemEvalResult result;
    try {
      result = new LongMemEvalHarness(kList, 50, Progress.forCurrentProcess(System.err)).run(items, list);
    } finally {
      for (EvalSystem s : list) {
        s.close();
      }
    }
    System.out.print(table(result, kList));
    if (json != null) {
      AtomicFiles.write(json, ResultJson.longMemEval(result));
      System.out.println("JSON written to " + json);
    }
    return 0;
  }

  static String table(LongMemEvalResult r, List<Integer> ks) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "LongMemEval retrieval: %d questions (%d abstention skipped)%n", r.questions(), r.skippedAbstention()));
    for (String level : List.of("session", "turn")) {
      sb.append('\n').append(level).append(" level\n").append(String.format(Locale.ROOT, "%-12s", "system"));
      for (String m : List.of("recall_any", "recall_all", "ndcg_any")) {
        ks.forEach(k -> sb.append(String.format(Locale.ROOT, " %14s", m + "@" + k)));
      }
      sb.append('\n');
      for (var s : r.systems()) {
        var scores = level.equals("session") ? s.session() : s.turn();
        sb.append(String.format(Locale.ROOT, "%-12s", s.system()));
        for (String m : List.of("recall_any", "recall_all", "ndcg_any")) {
          ks.forEach(k -> {
            Double v = scores.getOrDefault(m, java.util.Map.of()).get(k);
            sb.append(String.format(Locale.ROOT, " %14s", v == null ? "-" : String.format(Locale.ROOT, "%.3f", v)));
          });
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }
}
