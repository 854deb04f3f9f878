package dev.lychee.bench.qa;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Renders an LLM-judged run: a terminal table with one row per variant (the ablation table when
 * several variants ran) and accuracy per question group, the result JSON, and a Markdown report
 * with an SVG bar chart of judge accuracy beside query tokens.
 */
public final class QaReport {
  /** The chart's file name inside the report directory. */
  public static final String CHART_FILE = "qa-accuracy.svg";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private QaReport() {}

  /** The terminal table. */
  public static String table(QaResult result) {
    Map<String, QaSummary> s = result.summaries();
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%-14s %5s %5s %7s %6s %6s %7s %6s %6s %10s %8s %10s %8s %8s %8s%n",
        "variant", "conv", "n", "judge", "F1", "EM", "BLEU-1", "abst", "bestF1", "build K/c", "calls/c", "query K/q",
        "calls/q", "p50 ms", "p95 ms"));
    s.forEach((name, x) -> out.append(String.format(Locale.ROOT,
        "%-14s %5d %5d %7.3f %6.3f %6.3f %7.3f %6.3f %6.3f %10.1f %8.1f %10.2f %8.2f %8d %8d%n", name, x.conversations(),
        x.questions(), x.accuracy(), x.f1(), x.exactMatch(), x.bleu1(), x.abstention(), x.bestSentenceF1(),
        x.constructionKTokensPerConversation(), x.constructionCallsPerConversation(), x.queryKTokensPerQuestion(),
        x.queryCallsPerQuestion(), x.answerP50Millis(), x.answerP95Millis())));
    TreeSet<String> groups = new TreeSet<>();
    s.values().forEach(x -> groups.addAll(x.accuracyByGroup().keySet()));
    if (!groups.isEmpty()) {
      boolean judged = s.values().stream().anyMatch(x -> !Double.isNaN(x.accuracy()));
      out.append(System.lineSeparator()).append(judged ? "judge accuracy by " : "token F1 by ").append(groupLabel(groups))
          .append(System.lineSeparator());
      out.append(String.format(Locale.ROOT, "%-14s", "variant"));
      groups.forEach(g -> out.append(String.format(Locale.ROOT, " %12s", abbreviate(g))));
      out.append(System.lineSeparator());
      s.forEach((name, x) -> {
        out.append(String.format(Locale.ROOT, "%-14s", name));
        groups.forEach(g -> {
          Double a = x.accuracyByGroup().get(g);
          if (a != null && a.isNaN()) {
            a = x.f1ByGroup().get(g);
          }
          out.append(a == null ? String.format(Locale.ROOT, " %12s", "-")
              : String.format(Locale.ROOT, " %5.3f (%4d)", a, x.questionsByGroup().get(g)));
        });
        out.append(System.lineSeparator());
      });
      if (!judged) {
        // without a judge the lexical scores are the whole measurement: show each of them per group
        out.append(System.lineSeparator()).append("F1 / exact match / abstention / best-sentence F1 by ")
            .append(groupLabel(groups)).append(System.lineSeparator());
        s.forEach((name, x) -> groups.forEach(g -> out.append(String.format(Locale.ROOT,
            "%-14s %-12s F1 %5.3f  EM %5.3f  abst %5.3f  best %5.3f%n", name, abbreviate(g),
            x.f1ByGroup().getOrDefault(g, Double.NaN), x.exactMatchByGroup().getOrDefault(g, Double.NaN),
            x.abstentionByGroup().getOrDefault(g, Double.NaN), x.bestSentenceF1ByGroup().getOrDefault(g, Double.NaN)))));
      }
    }
    out.append(System.lineSeparator()).append(String.format(Locale.ROOT,
        "requests sent %d, answered from cache %d%n", result.sentRequests(), result.cacheHits()));
    s.forEach((name, x) -> {
      // an offline run has no judge (no judge tokens): no verdict is by design there, not a judge's fault
      boolean judged = x.judgeTokens() > 0;
      int unparsed = judged ? x.unparsedVerdicts() : 0;
      if (unparsed > 0 || x.pendingSegments() > 0) {
        out.append(String.format(Locale.ROOT, "%s: %d judge replies without a verdict, %d segments left pending%n",
            name, unparsed, x.pendingSegments()));
      }
    });
    for (String f : result.failures()) {
      out.append("failed: ").append(f).append(System.lineSeparator());
    }
    return out.toString();
  }

  /** The result JSON: per variant its summary and every judged question. */
  public static String json(String dataset, String llm, String judge, QaResult result) {
    ObjectNode root = JSON.createObjectNode();
    root.put("dataset", dataset);
    root.put("llm", llm);
    root.put("judge", judge);
    root.put("requests_sent", result.sentRequests());
    root.put("cache_hits", result.cacheHits());
    root.set("failures", JSON.valueToTree(result.failures()));
    ObjectNode variants = root.putObject("variants");
    result.summaries().forEach((name, x) -> {
      ObjectNode v = variants.putObject(name);
      v.put("conversations", x.conversations());
      v.put("questions", x.questions());
      v.put("judge_accuracy", x.accuracy());
      v.set("judge_accuracy_by_group", JSON.valueToTree(x.accuracyByGroup()));
      v.set("questions_by_group", JSON.valueToTree(x.questionsByGroup()));
      v.put("f1", x.f1());
      v.set("f1_by_group", JSON.valueToTree(x.f1ByGroup()));
      v.put("exact_match", x.exactMatch());
      v.set("exact_match_by_group", JSON.valueToTree(x.exactMatchByGroup()));
      v.set("abstention_by_group", JSON.valueToTree(x.abstentionByGroup()));
      v.set("best_sentence_f1_by_group", JSON.valueToTree(x.bestSentenceF1ByGroup()));
      v.put("bleu1", x.bleu1());
      v.put("abstention", x.abstention());
      v.put("best_sentence_f1", x.bestSentenceF1());
      v.put("construction_ktokens_per_conversation", x.constructionKTokensPerConversation());
      v.put("construction_calls_per_conversation", x.constructionCallsPerConversation());
      v.put("query_ktokens_per_question", x.queryKTokensPerQuestion());
      v.put("query_calls_per_question", x.queryCallsPerQuestion());
      v.put("judge_tokens", x.judgeTokens());
      v.put("answer_ms_p50", x.answerP50Millis());
      v.put("answer_ms_p95", x.answerP95Millis());
      v.put("unparsed_verdicts", x.unparsedVerdicts());
      v.put("pending_segments", x.pendingSegments());
      v.set("cases", JSON.valueToTree(result.outcomes().get(name)));
    });
    try {
      return JSON.writeValueAsString(root);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The Markdown report. */
  public static String markdown(String dataset, String llm, String judge, QaResult result) {
    StringBuilder md = new StringBuilder();
    md.append("# LLM-judged question answering\n\n");
    md.append("Data: `").append(dataset).append("`; system model `").append(llm).append("`; judge `").append(judge)
        .append("`.\n\n");
    md.append("| variant | cases | questions | judge accuracy | F1 | BLEU-1 | construction K tokens / case | "
        + "query K tokens / question | answer p50 / p95 ms |\n|---|---|---|---|---|---|---|---|---|\n");
    result.summaries().forEach((name, x) -> md.append(String.format(Locale.ROOT,
        "| %s | %d | %d | %.3f | %.3f | %.3f | %.1f | %.2f | %d / %d |%n", name, x.conversations(), x.questions(),
        x.accuracy(), x.f1(), x.bleu1(), x.constructionKTokensPerConversation(), x.queryKTokensPerQuestion(),
        x.answerP50Millis(), x.answerP95Millis())));
    md.append("\n![judge accuracy and query tokens per variant](").append(CHART_FILE).append(")\n");
    if (!result.failures().isEmpty()) {
      md.append("\nFailed cases (not counted; a re-run retries them):\n\n");
      result.failures().forEach(f -> md.append("* ").append(f).append('\n'));
    }
    return md.toString();
  }

  /** Bars of judge accuracy per variant, each labelled with its query tokens per question. */
  public static String svg(QaResult result) {
    Map<String, QaSummary> s = result.summaries();
    int barH = 22;
    int gap = 10;
    int left = 130;
    int width = 560;
    int height = 40 + s.size() * (barH + gap);
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n",
        left + width + 120, height));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\">judge accuracy (bar) and query K tokens per question</text>%n", left));
    int y = 30;
    for (var e : s.entrySet()) {
      double acc = Double.isNaN(e.getValue().accuracy()) ? 0 : e.getValue().accuracy();
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", left - 8,
          y + 15, escape(e.getKey())));
      svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#b8336a\"/>%n",
          left, y, acc * width, barH));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%.3f · %.2f K</text>%n", left + acc * width + 6,
          y + 15, acc, e.getValue().queryKTokensPerQuestion()));
      y += barH + gap;
    }
    return svg.append("</svg>\n").toString();
  }

  private static String groupLabel(TreeSet<String> groups) {
    return groups.stream().allMatch(g -> g.chars().allMatch(Character::isDigit))
        ? "category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)" : "question type";
  }

  private static String abbreviate(String g) {
    return g.length() <= 12 ? g : g.substring(0, 12);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
