package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Role;
import dev.lychee.api.Turn;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.bench.systems.StoreChoice;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The append table's rows: every turn appended and timed, every segment encoded, rows named by mode. */
class AppendLatencyRunTest {
  private static final List<EvalSession> SESSIONS = List.of(new EvalSession("s1", LocalDateTime.of(2024, 3, 1, 10, 0),
      List.of(new Turn(Role.USER, "Ada", "I adopted a cat named Pixel.", 0, null),
          new Turn(Role.USER, "Bo", "What a lovely name for a cat.", 1, null),
          new Turn(Role.USER, "Ada", "She sleeps on my keyboard.", 2, null))));

  @Test
  void backgroundRowsWithTheirOptionsSwitchedEncodeEverything() throws Exception {
    AppendLatencyRun run = new AppendLatencyRun(HashingEmbedder::new, StoreChoice.MEMORY);
    AppendLatencyRun.Row plain = run.run(SESSIONS, IngestConfig.EncodeMode.ASYNC, 0);
    AppendLatencyRun.Row yielding = run.run(SESSIONS, "async+yield",
        IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).backgroundYield(Duration.ofMillis(200)), 0);
    AppendLatencyRun.Row serial = run.run(SESSIONS, "async-serial",
        IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).embedWhileStoring(false), 0);
    assertThat(plain.mode()).isEqualTo("async");
    assertThat(yielding.mode()).isEqualTo("async+yield");
    assertThat(serial.mode()).isEqualTo("async-serial");
    for (AppendLatencyRun.Row r : List.of(yielding, plain, serial)) {
      assertThat(r.appends()).isEqualTo(3);
      assertThat(r.segments()).isPositive().isEqualTo(plain.segments());
    }
  }
}
