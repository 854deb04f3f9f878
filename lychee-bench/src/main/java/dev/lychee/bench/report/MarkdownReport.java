package dev.lychee.bench.report;

import dev.lychee.bench.harness.LocomoResult;
import dev.lychee.bench.harness.ResultTable;
import dev.lychee.bench.metrics.MetricSummary;
import dev.lychee.bench.metrics.SystemResult;
import java.util.Locale;

/** A Markdown report of a LoCoMo run: the headline table, per-category tables, and the chart. */
public final class MarkdownReport {
  /** File name of the chart the report embeds. */
  public static final String CHART_FILE = "recall-vs-tokens.svg";

  private MarkdownReport() {}

  public static String locomo(LocomoResult r, String dataFile) {
    StringBuilder sb = new StringBuilder("# LoCoMo evidence recall\n\n");
    sb.append("Data: `").append(dataFile).append("`. ").append(r.questions())
        .append(" questions of categories 1-4 (").append(r.skipped())
        .append(" skipped: no evidence id names a turn). Definitions: `docs/evaluation.md` §2; ")
        .append("tokens are o200k tokens of the serialised items.\n\n");
    sb.append("## Overall\n\n").append(table(r, null)).append('\n');
    for (int c = 1; c <= 4; c++) {
      final int cat = c;
      if (r.systems().stream().anyMatch(s -> s.byCategory().containsKey(cat))) {
        sb.append("## Category ").append(c).append(" (").append(ResultTable.categoryName(c)).append(")\n\n")
            .append(table(r, c)).append('\n');
      }
    }
    sb.append("## Recall against evidence tokens\n\n![recall@k vs tokens@k](").append(CHART_FILE).append(")\n");
    return sb.toString();
  }

  private static String table(LocomoResult r, Integer category) {
    StringBuilder sb = new StringBuilder("| system | n |");
    r.ks().forEach(k -> sb.append(" R@").append(k).append(" |"));
    r.ks().forEach(k -> sb.append(" hit@").append(k).append(" |"));
    r.ks().forEach(k -> sb.append(" tokens@").append(k).append(" |"));
    r.budgets().forEach(b -> sb.append(" R@").append(b).append("t |"));
    int cols = 2 + 3 * r.ks().size() + r.budgets().size();
    sb.append('\n').append("|---".repeat(cols)).append("|\n");
    for (SystemResult s : r.systems()) {
      MetricSummary m = category == null ? s.overall() : s.byCategory().get(category);
      if (m == null) {
        continue;
      }
      sb.append("| ").append(s.system()).append(" | ").append(m.questions()).append(" |");
      r.ks().forEach(k -> sb.append(cell(m.recall().get(k), "%.3f")));
      r.ks().forEach(k -> sb.append(cell(m.hit().get(k), "%.3f")));
      r.ks().forEach(k -> sb.append(cell(m.tokens().get(k), "%.0f")));
      r.budgets().forEach(b -> sb.append(cell(m.recallTokens().get(b), "%.3f")));
      sb.append('\n');
    }
    return sb.toString();
  }

  private static String cell(Double v, String fmt) {
    return " " + (v == null ? "-" : String.format(Locale.ROOT, fmt, v)) + " |";
  }
}
