package dev.lychee.embed.onnx.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.embed.onnx.OnnxEmbedder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures the distribution of the segmenter's raw surprise {@code s} under BGE on the LoCoMo dev
 * conversations, and derives the {@link dev.lychee.api.spi.EmbeddingProfile} of {@link
 * OnnxEmbedder}.
 *
 * <p>Method: every turn is embedded on the document side. For each turn e with at least one
 * predecessor in its session, and for each window size w = 1..6 (capped by the predecessors
 * available), the open segment V is the w previous turns of the same session and {@code s =
 * max(0, 1 - max(e.c, e.t))} (see {@link SurpriseSignal}). All those s are pooled.
 *
 * <p>Rule: centre = median(s), scale = 1.4826 * MAD(s). The paper's centre 0.20 sits near the
 * typical within-topic surprise of text-embedding-3-small and its scale 0.14 about one spread, so
 * this rule puts BGE's values at the same standardised position.
 *
 * <p>Also printed, for information: the same statistic per window size, the cosine of each turn
 * to its predecessor, and everything again for "segmenter exchanges": the evaluation ingests each
 * LoCoMo turn as one user-role turn, so each turn is an exchange of its own whose text, as the
 * segmenter embeds it (docs/defaults.md §1.2), is {@code "user: " + turn text}.
 *
 * <p>Not part of the default build (it embeds ~2,800 turns). Run with
 * {@code mvn -q -pl lychee-embed-onnx -am package -Dtest=BgeSurpriseStatistics
 * -Dsurefire.failIfNoSpecifiedTests=false -Dlychee.calibrate=true}, or call {@link #main}.
 */
@Tag("calibration")
class BgeSurpriseStatistics {

  static final Path DEFAULT_DATA = Path.of("/work/shared/data/locomo/locomo-dev.json");
  static final int MAX_WINDOW = 6;

  @Test
  @EnabledIfSystemProperty(named = "lychee.calibrate", matches = "true")
  void measure() throws IOException {
    Path data = Path.of(System.getProperty("lychee.locomo", DEFAULT_DATA.toString()));
    Report report = run(data, System.out);
    assertThat(report.turns().n()).isPositive();
  }

  public static void main(String[] args) throws IOException {
    run(args.length > 0 ? Path.of(args[0]) : DEFAULT_DATA, System.out);
  }

  record Report(RobustStats turns, RobustStats exchanges) {}

  static Report run(Path data, PrintStream out) throws IOException {
    if (!Files.isRegularFile(data)) {
      throw new IOException("LoCoMo file not found: " + data);
    }
    List<List<String>> sessions = LocomoSessions.read(data);
    OnnxEmbedder embedder = new OnnxEmbedder();
    long t0 = System.nanoTime();
    List<List<float[]>> turnVectors = new ArrayList<>();
    List<List<float[]>> exchangeVectors = new ArrayList<>();
    int turnCount = 0;
    for (List<String> session : sessions) {
      turnVectors.add(embedder.embedDocuments(session));
      exchangeVectors.add(embedder.embedDocuments(asUserExchanges(session)));
      turnCount += session.size();
    }
    out.printf(
        Locale.ROOT,
        "embedded %d turns in %d sessions with %s in %.1f s%n",
        turnCount,
        sessions.size(),
        embedder.modelId(),
        (System.nanoTime() - t0) / 1e9);

    RobustStats turns = report("turns", turnVectors, out);
    RobustStats exchanges = report("segmenter exchanges (\"user: \" + turn)", exchangeVectors, out);
    out.printf(
        Locale.ROOT,
        "PROFILE (rule: centre = median(s), scale = 1.4826*MAD(s), turn level): "
            + "surpriseCenter=%.3f surpriseScale=%.3f%n",
        turns.median(),
        turns.robustSigma());
    return new Report(turns, exchanges);
  }

  private static RobustStats report(String label, List<List<float[]>> sessions, PrintStream out) {
    List<Double> all = new ArrayList<>();
    List<List<Double>> byWindow = new ArrayList<>();
    for (int w = 0; w <= MAX_WINDOW; w++) {
      byWindow.add(new ArrayList<>());
    }
    List<Double> rawCosineToPrevious = new ArrayList<>();
    for (List<float[]> vectors : sessions) {
      for (int i = 1; i < vectors.size(); i++) {
        float[] e = vectors.get(i);
        rawCosineToPrevious.add(
            SurpriseSignal.dot(e, SurpriseSignal.normalisedMean(List.of(vectors.get(i - 1)))));
        for (int w = 1; w <= Math.min(MAX_WINDOW, i); w++) {
          double s = SurpriseSignal.surprise(vectors.subList(i - w, i), e);
          all.add(s);
          byWindow.get(w).add(s);
        }
      }
    }
    RobustStats stats = RobustStats.of(toArray(all));
    out.println("== " + label + " ==");
    out.println("s, all windows 1.." + MAX_WINDOW + ": " + stats);
    for (int w = 1; w <= MAX_WINDOW; w++) {
      out.println("s, window " + w + ": " + RobustStats.of(toArray(byWindow.get(w))));
    }
    out.println("cosine to the previous one: " + RobustStats.of(toArray(rawCosineToPrevious)));
    return stats;
  }

  /** Each turn as the text of a one-turn user exchange: {@code "<role>: <content>"}. */
  static List<String> asUserExchanges(List<String> session) {
    return session.stream().map(t -> "user: " + t).toList();
  }

  private static double[] toArray(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
