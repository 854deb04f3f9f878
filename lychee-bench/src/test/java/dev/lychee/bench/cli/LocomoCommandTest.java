package dev.lychee.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class LocomoCommandTest {
  @TempDir Path dir;

  private Path fixture() throws Exception {
    Path data = dir.resolve("locomo-tiny.json");
    try (InputStream in = getClass().getResourceAsStream("/locomo-tiny.json")) {
      Files.copy(in, data);
    }
    return data;
  }

  @Test
  void runsTheBaselinesEndToEndAndWritesTheContractJsonAndReport() throws Exception {
    Path data = fixture();
    Path json = dir.resolve("out/result.json");
    Path report = dir.resolve("report");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("locomo", "--data", data.toString(),
        "--systems", "lychee,bm25,dense,hybrid", "--k", "1,2,5", "--json", json.toString(), "--report", report.toString());
    assertThat(code).isZero();

    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(root.get("dataset").asText()).isEqualTo("locomo");
    assertThat(root.get("questions").asInt()).isEqualTo(6);
    assertThat(root.get("skipped").asInt()).isEqualTo(2);
    assertThat(fieldNames(root.get("systems"))).containsExactly("lychee", "bm25", "dense", "hybrid");
    for (JsonNode sys : root.get("systems")) {
      assertThat(fieldNames(sys)).containsExactly("recall", "hit", "tokens", "recall_tokens", "contained_tokens",
          "budget_recall", "budget_contained", "budget_tokens", "over_budget", "by_category");
      assertThat(fieldNames(sys.get("contained_tokens"))).containsExactly("500", "1000", "2000");
      assertThat(sys.get("over_budget").asInt()).isZero();
      assertThat(fieldNames(sys.get("recall"))).containsExactly("1", "2", "5");
      assertThat(fieldNames(sys.get("hit"))).containsExactly("1", "2", "5");
      assertThat(fieldNames(sys.get("tokens"))).containsExactly("1", "2", "5");
      assertThat(fieldNames(sys.get("recall_tokens"))).containsExactly("500", "1000", "2000");
      assertThat(fieldNames(sys.get("by_category"))).containsExactly("1", "2", "3", "4");
      for (JsonNode cat : sys.get("by_category")) {
        assertThat(fieldNames(cat)).containsExactly("recall", "hit", "recall_tokens", "contained_tokens",
            "budget_recall", "budget_contained");
      }
      double r1 = sys.get("recall").get("1").asDouble();
      double r5 = sys.get("recall").get("5").asDouble();
      assertThat(r1).isBetween(0.0, 1.0);
      assertThat(r5).isGreaterThanOrEqualTo(r1);
      assertThat(sys.get("hit").get("5").asDouble()).isGreaterThanOrEqualTo(r5);
      // Every conversation holds at most 7 turns, far below 500 tokens: the budgets see them all.
      assertThat(sys.get("recall_tokens").get("500").asDouble()).isGreaterThanOrEqualTo(r5);
    }
    // Dense and hybrid rank every turn, so with k = 5 on these small conversations they find
    // all gold turns of conv-t2 (4 turns) and most of conv-t1's.
    assertThat(root.at("/systems/dense/by_category/2/recall/5").asDouble()).isGreaterThan(0.5);
    // BM25: "What colour is the bicycle Bob bought?" shares "bicycle" and "bob" with its gold turns.
    assertThat(root.at("/systems/bm25/by_category/4/hit/1").asDouble()).isGreaterThan(0.0);

    // budget mode: lychee is asked once per budget; the baselines keep the prefix rule only
    assertThat(fieldNames(root.at("/systems/lychee/budget_recall"))).containsExactly("500", "1000", "2000");
    assertThat(fieldNames(root.at("/systems/bm25/budget_recall"))).isEmpty();
    for (String b : List.of("500", "1000", "2000")) {
      assertThat(root.at("/systems/lychee/budget_tokens/" + b).asDouble()).isPositive()
          .isLessThanOrEqualTo(Double.parseDouble(b));
      // the conversations fit every budget whole: selecting for B finds at least what the prefix found
      assertThat(root.at("/systems/lychee/budget_recall/" + b).asDouble())
          .isGreaterThanOrEqualTo(root.at("/systems/lychee/recall_tokens/" + b).asDouble() - 1e-9);
    }
    // Lychee's items never exceed the run's largest k, and they cite turns of the conversation.
    assertThat(root.at("/systems/lychee/recall/5").asDouble()).isGreaterThan(0.0);
    assertThat(root.at("/systems/lychee/tokens/5").asDouble()).isPositive();
    assertThat(report.resolve("locomo.md")).content().contains("| bm25 |", "| lychee |", "recall-vs-tokens.svg");
    String svg = Files.readString(report.resolve("recall-vs-tokens.svg"));
    assertThat(svg).startsWith("<svg").contains("polyline", ">hybrid<").endsWith("</svg>\n");
    try (var files = Files.list(json.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("result.json");
    }
  }

  @Test
  void thePrefixModeLeavesBudgetModeOut() throws Exception {
    Path data = fixture();
    Path json = dir.resolve("prefix.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("locomo", "--data", data.toString(),
        "--systems", "lychee,bm25", "--k", "1,2,5", "--mode", "prefix", "--json", json.toString());
    assertThat(code).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(fieldNames(root.at("/systems/lychee/budget_recall"))).isEmpty();
    assertThat(fieldNames(root.at("/systems/lychee/recall_tokens"))).containsExactly("500", "1000", "2000");
  }

  @Test
  void runsLycheeOnADurableStore() throws Exception {
    Path data = fixture();
    Path json = dir.resolve("sqlite.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("locomo", "--data", data.toString(),
        "--systems", "lychee", "--k", "1,2,5", "--store", "sqlite", "--json", json.toString());
    assertThat(code).isZero();
    JsonNode lychee = new ObjectMapper().readTree(json.toFile()).at("/systems/lychee");
    assertThat(fieldNames(lychee.at("/recall_tokens"))).containsExactly("500", "1000", "2000");
    assertThat(lychee.at("/recall_tokens/1000").asDouble()).isBetween(0.0, 1.0);
  }

  @Test
  void badOptionsGiveAClearErrorAndNoFile() throws Exception {
    Path data = fixture();
    Path json = dir.resolve("never.json");
    CommandLine cl = new CommandLine(new EvalCommand(HashingEmbedder::new));
    java.io.StringWriter err = new java.io.StringWriter();
    cl.setErr(new java.io.PrintWriter(err));
    assertThat(cl.execute("locomo", "--data", data.toString(), "--systems", "bm25,nope", "--json", json.toString()))
        .isNotZero();
    assertThat(cl.execute("locomo", "--data", data.toString(), "--k", "0", "--json", json.toString())).isNotZero();
    assertThat(cl.execute("locomo", "--data", data.toString(), "--mode", "knapsack", "--json", json.toString()))
        .isNotZero();
    assertThat(err.toString()).contains("--mode must be prefix or budget: knapsack");
    assertThat(cl.execute("locomo", "--data", data.toString(), "--store", "floppy", "--json", json.toString()))
        .isNotZero();
    assertThat(err.toString()).contains("unknown store 'floppy'");
    assertThat(json).doesNotExist();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> out = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
