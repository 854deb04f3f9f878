package dev.lychee.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SpeedAndLongMemEvalCommandTest {
  @TempDir Path dir;

  private Path copy(String resource) throws Exception {
    Path p = dir.resolve(resource);
    try (InputStream in = getClass().getResourceAsStream("/" + resource)) {
      Files.copy(in, p);
    }
    return p;
  }

  @Test
  void speedWritesOneEntryPerScaleWithTheContractKeys() throws Exception {
    Path json = dir.resolve("speed.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("speed",
        "--data", copy("locomo-tiny.json").toString(), "--scale", "1,3", "--system", "lychee", "--store", "sqlite",
        "--queries", "2", "--json", json.toString());
    assertThat(code).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(names(root)).containsExactly("vector_kernel", "scales", "append");
    assertThat(root.get("vector_kernel").asText()).isIn("simd", "scalar");
    assertAppendRows(root.get("append"), "sync", "async", "async+yield", "async-fgseg", "async-serial");
    assertThat(names(root.get("scales"))).containsExactly("1", "3");
    for (JsonNode s : root.get("scales")) {
      assertThat(names(s)).containsExactly("ingest_turns_per_s", "embedder_turns_per_s", "recall_ms",
          "query_embed_ms", "query_embed_beside_recalls_ms", "heap_mb", "ingest_embeddings_per_turn",
          "ingest_embedder_share", "warmup", "cpu");
      assertThat(names(s.get("cpu"))).containsExactly("beside_query_embed", "window");
      for (JsonNode span : s.get("cpu")) {
        assertThat(names(span)).containsExactly("wall_ms", "process_cores", "threads", "elsewhere_cores",
            "elsewhere_threads", "run_queue_cores", "caller_run_queue_cores", "collections", "collection_ms");
        // the recalls and the lone embeddings run on the caller's thread, which the span names
        assertThat(span.get("threads").has("main")).isTrue();
        assertThat(span.get("wall_ms").asDouble()).isPositive();
      }
      assertThat(names(s.get("warmup"))).containsExactly("recalls", "jit_quiet", "jit_ms", "compilations",
          "window_compilations", "window_compile_ms");
      // the default warm-up: at least 20 recalls (the tiny conversation's few questions in turn), at most 1000
      assertThat(s.get("warmup").get("recalls").asInt()).isBetween(20, 1000);
      assertThat(s.get("query_embed_beside_recalls_ms").asDouble()).isPositive();
      assertThat(s.get("ingest_embeddings_per_turn").asDouble()).isGreaterThanOrEqualTo(1.0);
      assertThat(s.get("ingest_embedder_share").asDouble()).isBetween(0.0, 1.0);
      assertThat(names(s.get("recall_ms"))).containsExactly("p50", "p95");
      assertThat(s.get("ingest_turns_per_s").asDouble()).isPositive();
      assertThat(s.get("recall_ms").get("p95").asDouble()).isGreaterThanOrEqualTo(s.get("recall_ms").get("p50").asDouble());
      assertThat(s.get("heap_mb").asDouble()).isPositive();
    }
  }

  @Test
  void speedRunsSeveralStoresInOneRunAndTimesConcurrentWriters() throws Exception {
    Path json = dir.resolve("speed2.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("speed", "--data",
        copy("locomo-tiny.json").toString(), "--scale", "1", "--store", "memory,sqlite", "--writers", "2",
        "--queries", "2", "--warmup", "0", "--json", json.toString());
    assertThat(code).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(names(root)).containsExactly("memory", "sqlite");
    for (JsonNode store : root) {
      assertThat(names(store)).containsExactly("vector_kernel", "scales", "append", "writers");
      assertThat(names(store.get("writers"))).containsExactly("1", "2");
      assertThat(store.get("writers").get("2").asDouble()).isPositive();
    }
  }

  @Test
  void speedWithSkipRecallWritesTheAppendTableAsJson() throws Exception {
    // a --skip-recall run has no scales; it used to fail after its table when asked for JSON
    Path json = dir.resolve("append.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("speed", "--data",
        copy("locomo-tiny.json").toString(), "--store", "sqlite", "--skip-recall", "--append-modes", "async",
        "--json", json.toString());
    assertThat(code).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(names(root)).containsExactly("vector_kernel", "append");
    assertAppendRows(root.get("append"), "async");
  }

  private static void assertAppendRows(JsonNode append, String... modes) {
    assertThat(names(append)).containsExactly("document_embed_ms", "rows");
    assertThat(append.get("document_embed_ms").asDouble()).isPositive();
    List<String> seen = new ArrayList<>();
    for (JsonNode row : append.get("rows")) {
      assertThat(names(row)).containsExactly("mode", "encoder_delay_ms", "appends", "p50_ms", "p95_ms", "max_ms",
          "idle_ms", "total_ms", "segments");
      assertThat(row.get("appends").asInt()).isPositive();
      assertThat(row.get("p95_ms").asDouble()).isGreaterThanOrEqualTo(row.get("p50_ms").asDouble());
      seen.add(row.get("mode").asText());
    }
    assertThat(seen).containsExactly(modes);
  }

  @Test
  void speedOnPostgresWithoutAServerSaysWhatIsMissing() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("LYCHEE_PG_URL") == null);
    CommandLine cl = new CommandLine(new EvalCommand(HashingEmbedder::new));
    java.io.StringWriter err = new java.io.StringWriter();
    cl.setErr(new java.io.PrintWriter(err));
    assertThat(cl.execute("speed", "--data", copy("locomo-tiny.json").toString(), "--store", "postgres")).isNotZero();
  }

  @Test
  void speedRejectsStoresThatAreNotThere() throws Exception {
    CommandLine cl = new CommandLine(new EvalCommand(HashingEmbedder::new));
    cl.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
    assertThat(cl.execute("speed", "--data", copy("locomo-tiny.json").toString(), "--store", "cassandra")).isNotZero();
  }

  @Test
  void longMemEvalWritesSessionAndTurnMetrics() throws Exception {
    Path json = dir.resolve("lme.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("longmemeval",
        "--data", copy("longmemeval-tiny.json").toString(), "--systems", "bm25,hybrid", "--k", "1,5", "--json", json.toString());
    assertThat(code).isZero();
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    assertThat(root.get("questions").asInt()).isEqualTo(2);
    assertThat(root.get("skipped_abstention").asInt()).isEqualTo(1);
    JsonNode bm25 = root.at("/systems/bm25");
    assertThat(names(bm25.get("session"))).containsExactlyInAnyOrder("recall_any", "recall_all", "ndcg_any");
    assertThat(bm25.at("/session/recall_all/1").asDouble()).isEqualTo(0.5);
    assertThat(bm25.at("/turn/ndcg_any/5").asDouble()).isEqualTo(1.0);
    assertThat(root.at("/systems/hybrid/session/recall_any/5").asDouble()).isEqualTo(1.0);
  }

  private static List<String> names(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
