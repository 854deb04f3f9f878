package dev.lychee.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.spi.Embedder;
import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.SegmentationRun;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.core.encode.EncoderPrompt;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.segment.Segmenters;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code lychee eval segments}: segmentation and encoder cost on a LoCoMo file (evaluation.md §3). */
@Command(name = "segments", mixinStandardHelpOptions = true,
    description = "Segments, turns per segment, encoder calls vs per-turn calls, encoder prompt tokens.")
final class SegmentsCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", required = true, description = "LoCoMo JSON file.")
  Path data;

  @Option(names = "--segmenter", defaultValue = "semantic", description = "semantic, fixed or turn (default: ${DEFAULT-VALUE}).")
  String segmenter;

  @Option(names = "--json", description = "Write the result JSON here.")
  Path json;

  @Override
  public Integer call() throws Exception {
    SegmentationConfig config = SegmentationConfig.defaults();
    Embedder embedder = parent.embedderFactory().get();
    SegmentationRun run = new SegmentationRun(Segmenters.factory(segmenter, config, embedder.profile()), config,
        embedder, new EncoderPrompt(EncodingConfig.defaults()), new O200kTokenCounter(),
        Progress.forCurrentProcess(System.err));
    SegmentationRun.Result r = run.run(LocomoLoader.load(data));
    System.out.print(table(r));
    if (json != null) {
      AtomicFiles.write(json, json(r));
      System.out.println("JSON written to " + json);
    }
    return 0;
  }

  static String table(SegmentationRun.Result r) {
    return String.format(Locale.ROOT,
        "%nsegmenter %s: %d turns -> %d segments%n"
            + "turns per segment: mean %.2f, median %.1f, p90 %.0f%n"
            + "encoder calls: %d (per-turn encoding: %d calls, %.1fx as many)%n"
            + "encoder input tokens (rendered LLM prompt, o200k): %d (%.0f per call)%n",
        r.segmenter(), r.turns(), r.segments(), r.meanTurnsPerSegment(), r.medianTurnsPerSegment(),
        r.p90TurnsPerSegment(), r.segments(), r.turns(), r.turns() / (double) Math.max(1, r.segments()),
        r.encoderInputTokens(), r.encoderInputTokens() / (double) Math.max(1, r.segments()));
  }

  /** {@code {"segments":n,"turns":n,"turns_per_segment":{"mean":x,"median":x,"p90":x},"encoder_calls":n,"encoder_input_tokens":n}}. */
  static String json(SegmentationRun.Result r) throws Exception {
    ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = m.createObjectNode();
    root.put("segments", r.segments());
    root.put("turns", r.turns());
    ObjectNode tps = root.putObject("turns_per_segment");
    tps.put("mean", Math.round(r.meanTurnsPerSegment() * 1000d) / 1000d);
    tps.put("median", r.medianTurnsPerSegment());
    tps.put("p90", r.p90TurnsPerSegment());
    root.put("encoder_calls", r.segments());
    root.put("encoder_input_tokens", r.encoderInputTokens());
    return m.writeValueAsString(root) + "\n";
  }
}
