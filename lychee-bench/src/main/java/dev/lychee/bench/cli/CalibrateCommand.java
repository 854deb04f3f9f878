package dev.lychee.bench.cli;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.bench.harness.SegmentationRun;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.locomo.LocomoSession;
import dev.lychee.core.segment.ExchangeDraft;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.api.Segment;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.segment.SemanticSegmenter;
import dev.lychee.core.segment.SurpriseCalibrator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code lychee eval calibrate}: the surprise and cohesion-drop statistics of the embedder on a
 * LoCoMo file's exchanges, and the {@link EmbeddingProfile} they imply, beside the one the
 * embedder declares.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Surprise statistics of the embedder on a LoCoMo file (segment helper's SurpriseCalibrator).")
final class CalibrateCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, required = true, description = "LoCoMo JSON file.")
  Path data;

  @Option(names = "--window", defaultValue = "" + SurpriseCalibrator.DEFAULT_WINDOW,
      description = "Simulated open-segment length in exchanges (default: ${DEFAULT-VALUE}).")
  int window;

  @Option(names = "--exchange-vectors-from-turns", description = "Fit on the texts the segmenter embeds with "
      + "SegmentationConfig.exchangeVectorsFromTurns (a one-turn exchange as its turn's text), and compare the "
      + "segments it forms with the default's (docs/defaults.md §1.3).")
  boolean fromTurns;

  @Option(names = "--profiles", split = ";", description = "Extra profiles to count segments with on the fitted "
      + "texts, each centre,scale,unit (e.g. 0.08,0.057,0.028;0.09,0.06,0.03).")
  List<String> extraProfiles = List.of();

  @Override
  public Integer call() throws Exception {
    SegmentationConfig config = SegmentationConfig.builder().exchangeVectorsFromTurns(fromTurns).build();
    SegmentationConfig defaults = SegmentationConfig.builder().exchangeVectorsFromTurns(false).build();
    Embedder embedder = parent.embedderFactory().get();
    List<List<float[]>> sessions = new ArrayList<>();
    List<List<dev.lychee.api.Exchange>> exchanges = new ArrayList<>();
    List<List<dev.lychee.api.Exchange>> defaultExchanges = new ArrayList<>();
    for (LocomoConversation conv : LocomoLoader.load(data)) {
      for (LocomoSession s : conv.sessions()) {
        List<ExchangeDraft> drafts = Exchanges.form(SegmentationRun.rawTurns("calibrate", s), config);
        List<float[]> vectors = embedder.embedDocuments(drafts.stream().map(d -> d.embeddingText(config)).toList());
        sessions.add(vectors);
        exchanges.add(embedded(drafts, vectors));
        if (fromTurns) {
          defaultExchanges.add(embedded(drafts,
              embedder.embedDocuments(drafts.stream().map(d -> d.embeddingText(defaults)).toList())));
        }
      }
    }
    SurpriseCalibrator.Fit fit = SurpriseCalibrator.fit(exchanges, config, EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
    SurpriseCalibrator.Calibration c = new SurpriseCalibrator(window, 2).measure(sessions);
    EmbeddingProfile measured = new EmbeddingProfile(c.surprise().median(), c.surprise().robustSigma());
    EmbeddingProfile declared = embedder.profile();
    EmbeddingProfile declaredTurns = embedder.turnTextProfile().orElse(null);
    System.out.print(String.format(Locale.ROOT,
        "embedder %s, %d sessions, window %d%n"
            + "%-9s %7s %8s %8s %8s %8s %8s%n%s%n%s%n"
            + "measured profile: centre %.4f, scale %.4f%n"
            + "declared profile: centre %.4f, scale %.4f%n"
            + "beta against the paper's text-embedding-3-small scale: %.4f%n"
            + "joint fit (default configuration): beta %.4f, centre %.4f, scale %.4f, cohesion unit %.4f"
            + " (converged: %s)%n"
            + "declared cohesion unit: %s%n",
        embedder.modelId(), sessions.size(), window, "signal", "n", "median", "MAD", "p10", "p90", "mean",
        row("surprise", c.surprise()), row("drop", c.drop()), measured.surpriseCenter(), measured.surpriseScale(),
        declared.surpriseCenter(), declared.surpriseScale(), c.beta(EmbeddingProfile.TEXT_EMBEDDING_3_SMALL),
        fit.beta(), fit.profile().surpriseCenter(), fit.profile().surpriseScale(), fit.profile().cohesionUnit(),
        fit.converged(),
        declared.hasCohesionUnit()
            ? String.format(Locale.ROOT, "%.4f", declared.cohesionUnit())
            : "none (derived from the scale)"));
    System.out.println("segments formed (semantic segmenter, threshold " + config.threshold() + "):");
    if (fromTurns) {
      System.out.println(census("default texts, declared profile", defaultExchanges, defaults, declared));
    }
    String texts = fromTurns ? "turn texts" : "default texts";
    System.out.println(census(texts + ", declared profile", exchanges, config, declared));
    if (fromTurns && declaredTurns != null) {
      System.out.println(census(texts + ", declared turn-text profile", exchanges, config, declaredTurns));
    }
    System.out.println(census(texts + ", fitted profile", exchanges, config, fit.profile()));
    for (String p : extraProfiles) {
      String[] v = p.split(",");
      EmbeddingProfile extra = new EmbeddingProfile(Double.parseDouble(v[0].trim()), Double.parseDouble(v[1].trim()),
          v.length > 2 ? Double.parseDouble(v[2].trim()) : Double.NaN);
      System.out.println(census(texts + ", profile " + p, exchanges, config, extra));
    }
    return 0;
  }

  private static List<dev.lychee.api.Exchange> embedded(List<ExchangeDraft> drafts, List<float[]> vectors) {
    List<dev.lychee.api.Exchange> session = new ArrayList<>(drafts.size());
    for (int i = 0; i < drafts.size(); i++) {
      session.add(drafts.get(i).toExchange(vectors.get(i)));
    }
    return session;
  }

  /** Segments and turns per segment (mean, median, p90) the semantic segmenter forms. */
  static String census(String label, List<List<dev.lychee.api.Exchange>> sessions, SegmentationConfig config,
      EmbeddingProfile profile) {
    List<Integer> sizes = new ArrayList<>();
    for (List<dev.lychee.api.Exchange> session : sessions) {
      if (session.isEmpty()) {
        continue;
      }
      SemanticSegmenter segmenter = new SemanticSegmenter("calibrate", session.get(0).session(), config, profile);
      List<Segment> out = new ArrayList<>(segmenter.offerAll(session));
      out.addAll(segmenter.flush());
      out.forEach(seg -> sizes.add(seg.turns().size()));
    }
    int[] sorted = sizes.stream().mapToInt(Integer::intValue).sorted().toArray();
    double mean = sizes.stream().mapToInt(Integer::intValue).average().orElse(Double.NaN);
    return String.format(Locale.ROOT, "  %-48s %5d segments, turns per segment mean %.2f, median %d, p90 %d",
        label, sorted.length, mean, sorted[sorted.length / 2], sorted[(int) Math.floor(0.9 * (sorted.length - 1))]);
  }

  private static String row(String name, SurpriseCalibrator.Stats s) {
    return String.format(Locale.ROOT, "%-9s %7d %8.4f %8.4f %8.4f %8.4f %8.4f", name, s.count(), s.median(), s.mad(),
        s.p10(), s.p90(), s.mean());
  }
}
