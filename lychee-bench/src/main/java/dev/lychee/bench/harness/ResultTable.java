package dev.lychee.bench.harness;

import dev.lychee.bench.metrics.MetricSummary;
import dev.lychee.bench.metrics.SystemResult;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Terminal tables of a LoCoMo run: one overall table, then one per category. */
public final class ResultTable {
  private ResultTable() {}

  public static String locomo(LocomoResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "LoCoMo evidence recall: %d questions (%d skipped: no valid evidence)%n%n",
        r.questions(), r.skipped()));
    sb.append("overall\n").append(table(r, null)).append('\n');
    List<Integer> cats = r.systems().stream().flatMap(s -> s.byCategory().keySet().stream())
        .distinct().sorted().toList();
    for (int c : cats) {
      sb.append("category ").append(c).append(" (").append(categoryName(c)).append(")\n")
          .append(table(r, c)).append('\n');
    }
    sb.append("Token budgets: R@Bt = recall of the prefix of the k list that fits B (every system); R@Bb = recall of\n"
        + "the evidence selected FOR budget B (budget mode, systems with a budget of their own); C = answer containment\n"
        + "(normalised gold answer readable in that evidence, dates compared as dates); tok@Bb = mean serialised tokens.\n\n");
    sb.append("overall\n").append(budgetTable(r, null)).append('\n');
    for (int c : cats) {
      sb.append("category ").append(c).append(" (").append(categoryName(c)).append(")\n")
          .append(budgetTable(r, c)).append('\n');
    }
    for (SystemResult s : r.systems()) {
      if (s.overall().overBudget() > 0) {
        sb.append(String.format(Locale.ROOT, "WARNING: %s exceeded its token budget %d times%n", s.system(),
            s.overall().overBudget()));
      }
    }
    return sb.toString();
  }

  private static String budgetTable(LocomoResult r, Integer category) {
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-22s %5s", "system", "n"));
    for (int b : r.budgets()) {
      for (String m : List.of("R@%dt", "R@%db", "tok@%db", "C@%dt", "C@%db")) {
        header.append(String.format(Locale.ROOT, " %8s", String.format(Locale.ROOT, m, b)));
      }
    }
    StringBuilder sb = new StringBuilder(header).append('\n').append("-".repeat(header.length())).append('\n');
    for (SystemResult s : r.systems()) {
      MetricSummary m = category == null ? s.overall() : s.byCategory().get(category);
      if (m == null) {
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%-22s %5d", s.system(), m.questions()));
      for (int b : r.budgets()) {
        cell(sb, m.recallTokens().get(b), "%.3f");
        cell(sb, m.budgetRecall().get(b), "%.3f");
        cell(sb, m.budgetTokens().get(b), "%.0f");
        cell(sb, m.contained().get(b), "%.3f");
        cell(sb, m.budgetContained().get(b), "%.3f");
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void cell(StringBuilder sb, Double v, String fmt) {
    sb.append(String.format(Locale.ROOT, " %8s", v == null ? "-" : String.format(Locale.ROOT, fmt, v)));
  }

  /** LoCoMo's own names of its categories. */
  public static String categoryName(int c) {
    return switch (c) {
      case 1 -> "multi-hop";
      case 2 -> "temporal";
      case 3 -> "open-domain";
      case 4 -> "single-hop";
      default -> "other";
    };
  }

  private static String table(LocomoResult r, Integer category) {
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-22s %5s", "system", "n"));
    r.ks().forEach(k -> header.append(String.format(Locale.ROOT, " %7s", "R@" + k)));
    r.ks().forEach(k -> header.append(String.format(Locale.ROOT, " %7s", "hit@" + k)));
    r.ks().forEach(k -> header.append(String.format(Locale.ROOT, " %7s", "tok@" + k)));
    r.budgets().forEach(b -> header.append(String.format(Locale.ROOT, " %7s", "R@" + b + "t")));
    StringBuilder sb = new StringBuilder(header).append('\n')
        .append("-".repeat(header.length())).append('\n');
    for (SystemResult s : r.systems()) {
      MetricSummary m = category == null ? s.overall() : s.byCategory().get(category);
      if (m == null) {
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%-22s %5d", s.system(), m.questions()));
      cells(sb, m.recall(), r.ks(), "%.3f");
      cells(sb, m.hit(), r.ks(), "%.3f");
      cells(sb, m.tokens(), r.ks(), "%.0f");
      cells(sb, m.recallTokens(), r.budgets(), "%.3f");
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void cells(StringBuilder sb, Map<Integer, Double> values, List<Integer> keys, String fmt) {
    for (int k : keys) {
      Double v = values.get(k);
      sb.append(String.format(Locale.ROOT, " %7s", v == null ? "-" : String.format(Locale.ROOT, fmt, v)));
    }
  }
}
