package dev.lychee.bench.report;

import dev.lychee.bench.harness.LocomoResult;
import dev.lychee.bench.metrics.MetricSummary;
import dev.lychee.bench.metrics.SystemResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A hand-written SVG line chart: for each system, recall@k (y) against the mean evidence tokens
 * at that k (x), one point per k. A system that climbs faster per token is the better one.
 */
public final class RecallTokenChart {
  private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  private static final int W = 640;
  private static final int H = 420;
  private static final int LEFT = 60;
  private static final int RIGHT = 170;
  private static final int TOP = 30;
  private static final int BOTTOM = 50;

  private RecallTokenChart() {}

  public static String svg(LocomoResult result) {
    double maxTokens = 1;
    for (SystemResult s : result.systems()) {
      for (double t : s.overall().tokens().values()) {
        maxTokens = Math.max(maxTokens, t);
      }
    }
    maxTokens = niceCeiling(maxTokens);
    double plotW = W - LEFT - RIGHT;
    double plotH = H - TOP - BOTTOM;
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
        W, H, W, H));
    sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\">LoCoMo evidence recall@k vs. evidence tokens@k</text>%n", LEFT));
    // Grid and axes.
    for (int i = 0; i <= 5; i++) {
      double y = TOP + plotH - plotH * i / 5.0;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", LEFT, y, LEFT + plotW, y));
      sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>%n", LEFT - 6, y + 4, i / 5.0));
      double x = LEFT + plotW * i / 5.0;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", x, TOP, x, TOP + plotH));
      sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>%n", x, TOP + plotH + 16, maxTokens * i / 5.0));
    }
    sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>%n", LEFT, TOP, plotW, plotH));
    sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">mean evidence tokens at k (o200k)</text>%n", LEFT + plotW / 2, H - 12));
    sb.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">recall@k</text>%n", TOP + plotH / 2, TOP + plotH / 2));
    int i = 0;
    for (SystemResult s : result.systems()) {
      String colour = COLOURS[i % COLOURS.length];
      MetricSummary m = s.overall();
      List<String> points = new ArrayList<>();
      for (int k : result.ks()) {
        Double t = m.tokens().get(k);
        Double r = m.recall().get(k);
        if (t == null || r == null) {
          continue;
        }
        double x = LEFT + plotW * t / maxTokens;
        double y = TOP + plotH - plotH * r;
        points.add(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
        sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s k=%d: R=%.3f, %.0f tokens</title></circle>%n",
            x, y, colour, escape(s.system()), k, r, t));
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">k=%d</text>%n", x + 5, y - 5, colour, k));
      }
      sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n", colour, String.join(" ", points)));
      double ly = TOP + 14 + 18 * i;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>%n", LEFT + plotW + 12, ly - 4, LEFT + plotW + 32, ly - 4, colour));
      sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>%n", LEFT + plotW + 38, ly, escape(s.system())));
      i++;
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  /** 1, 2 or 5 times a power of ten, at least {@code v}. */
  static double niceCeiling(double v) {
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
