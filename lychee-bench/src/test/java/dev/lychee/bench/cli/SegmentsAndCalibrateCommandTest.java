package dev.lychee.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SegmentsAndCalibrateCommandTest {
  @TempDir Path dir;

  private Path data() throws Exception {
    Path p = dir.resolve("locomo-tiny.json");
    try (InputStream in = getClass().getResourceAsStream("/locomo-tiny.json")) {
      Files.copy(in, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    return p;
  }

  private JsonNode segments(String segmenter) throws Exception {
    Path json = dir.resolve(segmenter + ".json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("segments", "--data",
        data().toString(), "--segmenter", segmenter, "--json", json.toString());
    assertThat(code).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    List<String> keys = new ArrayList<>();
    root.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("segments", "turns", "turns_per_segment", "encoder_calls", "encoder_input_tokens",
        "conversations");
    List<String> tps = new ArrayList<>();
    root.get("turns_per_segment").fieldNames().forEachRemaining(tps::add);
    assertThat(tps).containsExactly("mean", "median", "p90");
    return root;
  }

  @Test
  void perTurnSegmentationMakesOneEncoderCallPerTurn() throws Exception {
    JsonNode turn = segments("turn");
    assertThat(turn.get("turns").asInt()).isEqualTo(11);
    assertThat(turn.get("segments").asInt()).isEqualTo(11);
    assertThat(turn.get("encoder_calls").asInt()).isEqualTo(11);
    assertThat(turn.at("/turns_per_segment/mean").asDouble()).isEqualTo(1.0);
    assertThat(turn.at("/turns_per_segment/p90").asDouble()).isEqualTo(1.0);
  }

  @Test
  void fixedWindowsKeepEachSmallSessionWhole() throws Exception {
    // Sessions of 3, 4, 2 and 2 turns, all far below 600 tokens and 10 exchanges.
    JsonNode fixed = segments("fixed");
    assertThat(fixed.get("segments").asInt()).isEqualTo(4);
    assertThat(fixed.at("/turns_per_segment/mean").asDouble()).isEqualTo(2.75);
    assertThat(fixed.at("/turns_per_segment/median").asDouble()).isEqualTo(2.5);
    assertThat(fixed.at("/turns_per_segment/p90").asDouble()).isEqualTo(4.0);
    // Fewer calls means fewer repeated system prompts.
    assertThat(fixed.get("encoder_input_tokens").asLong()).isPositive()
        .isLessThan(segments("turn").get("encoder_input_tokens").asLong());
  }

  @Test
  void semanticSegmentsNeverSpanSessions() throws Exception {
    JsonNode semantic = segments("semantic");
    assertThat(semantic.get("segments").asInt()).isBetween(4, 11);
    assertThat(semantic.get("turns").asInt()).isEqualTo(11);
  }

  @Test
  void perConversationRowsSumToTheTotals() throws Exception {
    JsonNode fixed = segments("fixed");
    JsonNode convs = fixed.get("conversations");
    assertThat(convs).isNotEmpty();
    long tokens = 0;
    int segments = 0;
    int turns = 0;
    for (JsonNode c : convs) {
      assertThat(c.get("id").asText()).isNotBlank();
      assertThat(c.get("encoder_calls").asInt()).isPositive();
      tokens += c.get("encoder_input_tokens").asLong();
      segments += c.get("segments").asInt();
      turns += c.get("turns").asInt();
    }
    assertThat(tokens).isEqualTo(fixed.get("encoder_input_tokens").asLong());
    assertThat(segments).isEqualTo(fixed.get("segments").asInt());
    assertThat(turns).isEqualTo(fixed.get("turns").asInt());
  }

  @Test
  void recordsOptionPrintsTypesKindsAndSamples() throws Exception {
    Path json = dir.resolve("records.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("segments", "--data", data().toString(),
          "--segmenter", "fixed", "--records", "--json", json.toString())).isZero();
    } finally {
      System.setOut(old);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("per conversation:", "encoder input tokens", "records per type:", "nodes per kind:",
        "sample records", "event_frame", "failure_pattern");
    JsonNode records = new ObjectMapper().readTree(json.toFile()).get("records");
    int total = records.get("total").asInt();
    assertThat(total).isPositive();
    assertThat(records.get("per_type").size()).isEqualTo(7); // every memory type, zero or not
    assertThat(records.at("/per_type/fact").asInt()).isPositive().isLessThanOrEqualTo(total);
    assertThat(records.get("plans").asInt()).isBetween(0, total);
    // one event frame per segment of the fixed segmenter, which keeps each of the 4 sessions whole
    assertThat(records.at("/nodes_per_kind/event_frame").asInt()).isEqualTo(4);
    assertThat(records.at("/nodes_per_kind/entity").asInt()).isPositive();
    // every one of those 4 segments has content, so each gives records
    assertThat(records.get("segments").asInt()).isEqualTo(4);
    assertThat(records.get("segments_without_records").asInt()).isZero();
    assertThat(text).contains("segments that gave no record: 0 of 4");
  }

  @Test
  void calibratePrintsTheMeasuredProfile() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("calibrate", "--data", data().toString()))
          .isZero();
    } finally {
      System.setOut(old);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("hashing-256", "surprise", "drop", "measured profile", "declared profile: centre 0.5000, scale 0.2000");
    // 4 sessions with 3, 4, 2, 2 exchanges give 2 + 3 + 1 + 1 = 7 surprise values.
    assertThat(text).containsPattern("surprise\\s+7 ");
  }

  @Test
  void calibrateOnTurnTextsCountsTheSegmentsOfEachProfileAgainstTheDefault() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("calibrate", "--data",
          data().toString(), "--exchange-vectors-from-turns", "--profiles", "0.5,0.2,0.1")).isZero();
    } finally {
      System.setOut(old);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    // the tiny file's 11 turns, one exchange each, segmented four ways: each row covers all of them
    for (String label : List.of("default texts, declared profile", "turn texts, declared profile",
        "turn texts, fitted profile", "turn texts, profile 0.5,0.2,0.1")) {
      assertThat(text).containsPattern(java.util.regex.Pattern.quote(label) + "\\s+\\d+ segments");
    }
    // every session closes at least one segment (4 sessions), and no segment spans two
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) segments, turns per segment mean").matcher(text);
    int rows = 0;
    while (m.find()) {
      assertThat(Integer.parseInt(m.group(1))).isBetween(4, 11);
      rows++;
    }
    assertThat(rows).isEqualTo(4);
  }
}
