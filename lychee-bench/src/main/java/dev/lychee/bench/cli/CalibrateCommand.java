package dev.lychee.bench.cli;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.bench.harness.SegmentationRun;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.locomo.LocomoSession;
import dev.lychee.core.segment.ExchangeDraft;
import dev.lychee.core.segment.Exchanges;
import dev.lychee.core.segment.SegmentationConfig;
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

  @Option(names = "--data", required = true, description = "LoCoMo JSON file.")
  Path data;

  @Option(names = "--window", defaultValue = "" + SurpriseCalibrator.DEFAULT_WINDOW,
      description = "Simulated open-segment length in exchanges (default: ${DEFAULT-VALUE}).")
  int window;

  @Override
  public Integer call() throws Exception {
    SegmentationConfig config = SegmentationConfig.defaults();
    Embedder embedder = parent.embedderFactory().get();
    List<List<float[]>> sessions = new ArrayList<>();
    List<List<dev.lychee.api.Exchange>> exchanges = new ArrayList<>();
    for (LocomoConversation conv : LocomoLoader.load(data)) {
      for (LocomoSession s : conv.sessions()) {
        List<ExchangeDraft> drafts = Exchanges.form(SegmentationRun.rawTurns("calibrate", s), config);
        List<float[]> vectors = embedder.embedDocuments(drafts.stream().map(d -> d.embeddingText(config)).toList());
        sessions.add(vectors);
        List<dev.lychee.api.Exchange> session = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
          session.add(drafts.get(i).toExchange(vectors.get(i)));
        }
        exchanges.add(session);
      }
    }
    SurpriseCalibrator.Fit fit = SurpriseCalibrator.fit(exchanges, config, EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
    SurpriseCalibrator.Calibration c = new SurpriseCalibrator(window, 2).measure(sessions);
    EmbeddingProfile measured = new EmbeddingProfile(c.surprise().median(), c.surprise().robustSigma());
    EmbeddingProfile declared = embedder.profile();
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
    return 0;
  }

  private static String row(String name, SurpriseCalibrator.Stats s) {
    return String.format(Locale.ROOT, "%-9s %7d %8.4f %8.4f %8.4f %8.4f %8.4f", name, s.count(), s.median(), s.mad(),
        s.p10(), s.p90(), s.mean());
  }
}
