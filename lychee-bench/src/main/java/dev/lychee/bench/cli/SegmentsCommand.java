package dev.lychee.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.spi.Embedder;
import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.harness.RecordCensus;
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

/**
 * {@code lychee eval segments}: segmentation and encoder cost on a LoCoMo file (evaluation.md §3),
 * in total and per conversation; with {@code --records}, also what offline ingest would store:
 * records per memory type, evidence nodes per kind and a few sample records.
 */
@Command(name = "segments", mixinStandardHelpOptions = true,
    description = "Segments, turns per segment, encoder calls vs per-turn calls, encoder prompt tokens "
        + "(total and per conversation); --records adds the offline encoder's records and nodes.")
final class SegmentsCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, required = true, description = "LoCoMo JSON file.")
  Path data;

  @Option(names = "--segmenter", defaultValue = "semantic", description = "semantic, fixed or turn (default: ${DEFAULT-VALUE}).")
  String segmenter;

  @Option(names = "--json", description = "Write the result JSON here.")
  Path json;

  @Option(names = "--records", description = "Also run the offline encoder and the evidence organiser over every "
      + "segment: records per type, nodes per kind (distinct per conversation, summed), ten sample records.")
  boolean records;

  @Override
  public Integer call() throws Exception {
    Embedder embedder = parent.embedderFactory().get();
    SegmentationConfig config = SegmentationConfig.defaults();
    SegmentationRun run = new SegmentationRun(Segmenters.factory(segmenter, config, Segmenters.profile(config, embedder)), config,
        embedder, new EncoderPrompt(EncodingConfig.defaults()), new O200kTokenCounter(),
        Progress.forCurrentProcess(System.err));
    RecordCensus census = records ? RecordCensus.offline() : null;
    SegmentationRun.Result r = run.run(LocomoLoader.load(data), census);
    RecordCensus.Result counted = census == null ? null : census.result();
    System.out.print(table(r));
    if (counted != null) {
      System.out.print(records(counted));
    }
    if (json != null) {
      AtomicFiles.write(json, json(r, counted));
      System.out.println("JSON written to " + json);
    }
    return 0;
  }

  static String table(SegmentationRun.Result r) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%nsegmenter %s: %d turns -> %d segments%n"
            + "turns per segment: mean %.2f, median %.1f, p90 %.0f%n"
            + "encoder calls: %d (per-turn encoding: %d calls, %.1fx as many)%n"
            + "encoder input tokens (rendered LLM prompt, o200k): %d (%.0f per call)%n",
        r.segmenter(), r.turns(), r.segments(), r.meanTurnsPerSegment(), r.medianTurnsPerSegment(),
        r.p90TurnsPerSegment(), r.segments(), r.turns(), r.turns() / (double) Math.max(1, r.segments()),
        r.encoderInputTokens(), r.encoderInputTokens() / (double) Math.max(1, r.segments())));
    sb.append(String.format(Locale.ROOT, "%nper conversation:%n%-14s %7s %9s %14s %21s%n",
        "conversation", "turns", "segments", "encoder calls", "encoder input tokens"));
    for (SegmentationRun.Conversation c : r.conversations()) {
      sb.append(String.format(Locale.ROOT, "%-14s %7d %9d %14d %21d%n",
          c.id(), c.turns(), c.segments(), c.segments(), c.encoderInputTokens()));
    }
    return sb.toString();
  }

  /** Records per type, nodes per kind and the sample records, as printed by {@code --records}. */
  static String records(RecordCensus.Result c) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%noffline encoder: %d records, %d evidence nodes (distinct per conversation, summed)%n", c.records(), c.nodes()));
    sb.append("records per type:\n");
    for (MemoryType t : MemoryType.values()) {
      int n = c.recordsPerType().get(t);
      sb.append(String.format(Locale.ROOT, "  %-16s %6d  %5.1f%%%n", t.wireName(), n, 100.0 * n / Math.max(1, c.records())));
    }
    sb.append(String.format(Locale.ROOT, "  (tagged plan:    %6d)%n", c.plans()));
    sb.append("nodes per kind:\n");
    for (NodeKind k : NodeKind.values()) {
      sb.append(String.format(Locale.ROOT, "  %-16s %6d%n", k.wireName(), c.nodesPerKind().get(k)));
    }
    sb.append(String.format(Locale.ROOT, "segments that gave no record: %d of %d%n", c.emptySegments(), c.segments()));
    for (String e : c.emptyExamples()) {
      sb.append("  e.g. ").append(e).append('\n');
    }
    sb.append("sample records (evenly spaced):\n");
    for (MemoryRecord m : c.samples()) {
      sb.append(String.format(Locale.ROOT, "  [%s] %s  (%s)%n", m.type().wireName(), m.text(),
          m.evidence().isEmpty() ? "" : m.evidence().get(0)));
    }
    return sb.toString();
  }

  /**
   * {@code {"segments":n,"turns":n,"turns_per_segment":{"mean":x,"median":x,"p90":x},"encoder_calls":n,
   * "encoder_input_tokens":n,"conversations":[{"id":..,"turns":n,"segments":n,"encoder_calls":n,
   * "encoder_input_tokens":n}]}}, plus {@code "records":{"total":n,"plans":n,"segments":n,"segments_without_records":n,"per_type":{..},"nodes_per_kind":{..}}}
   * when records were counted.
   */
  static String json(SegmentationRun.Result r, RecordCensus.Result census) throws Exception {
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
    ArrayNode convs = root.putArray("conversations");
    for (SegmentationRun.Conversation c : r.conversations()) {
      ObjectNode o = convs.addObject();
      o.put("id", c.id());
      o.put("turns", c.turns());
      o.put("segments", c.segments());
      o.put("encoder_calls", c.segments());
      o.put("encoder_input_tokens", c.encoderInputTokens());
    }
    if (census != null) {
      ObjectNode rec = root.putObject("records");
      rec.put("total", census.records());
      rec.put("plans", census.plans());
      rec.put("segments", census.segments());
      rec.put("segments_without_records", census.emptySegments());
      ObjectNode types = rec.putObject("per_type");
      for (MemoryType t : MemoryType.values()) {
        types.put(t.wireName(), census.recordsPerType().get(t));
      }
      ObjectNode kinds = rec.putObject("nodes_per_kind");
      for (NodeKind k : NodeKind.values()) {
        kinds.put(k.wireName(), census.nodesPerKind().get(k));
      }
    }
    return m.writeValueAsString(root) + "\n";
  }
}
