package dev.lychee.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.core.testing.HashingEmbedder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(120)
class ServerLoadCommandTest {
  @TempDir Path dir;

  @Test
  void oneRowPerModeAndClientCountWithoutFailures() throws Exception {
    Path json = dir.resolve("load.json");
    int code = new CommandLine(new EvalCommand(HashingEmbedder::new)).execute("server",
        "--clients", "1,2", "--requests", "3", "--warmup", "1", "--store", "sqlite", "--json", json.toString());
    assertThat(code).isZero();
    JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("rows");
    assertThat(rows).hasSize(6);
    assertThat(rows.findValuesAsText("mode")).containsExactly("http ingest", "http recall", "in-process recall",
        "http ingest", "http recall", "in-process recall");
    for (JsonNode r : rows) {
      assertThat(r.get("failures").asInt()).isZero();
      assertThat(r.get("requests").asInt()).isEqualTo(3 * r.get("clients").asInt());
      assertThat(r.get("requests_per_s").asDouble()).isPositive();
      assertThat(r.get("latency_ms").get("p95").asDouble()).isGreaterThanOrEqualTo(r.get("latency_ms").get("p50").asDouble());
    }
  }

  @Test
  void badOptionsAreRefused() {
    CommandLine cl = new CommandLine(new EvalCommand(HashingEmbedder::new));
    cl.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
    assertThat(cl.execute("server", "--store", "postgres")).isNotZero();
    assertThat(cl.execute("server", "--clients", "0")).isNotZero();
  }
}
