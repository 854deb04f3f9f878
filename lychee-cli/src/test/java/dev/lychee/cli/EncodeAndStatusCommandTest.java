package dev.lychee.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import dev.lychee.api.Encoding;
import dev.lychee.api.ProviderException;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lychee status} and {@code lychee encode --pending} on a real SQLite file with pending segments. */
class EncodeAndStatusCommandTest {
  @TempDir Path dir;

  /** An encoder whose provider refuses every call, as with a missing key. */
  private static final class RefusingEncoder implements Encoder {
    @Override
    public Encoding encode(Segment segment, ReferenceContext context) {
      throw new ProviderException("https://api.example.test/v1/chat/completions", 401,
          "POST https://api.example.test/v1/chat/completions answered 401: no key", null);
    }

    @Override
    public String name() {
      return "refusing";
    }
  }

  private record Run(int exit, String out) {}

  private static Run run(String... args) {
    PrintStream old = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      picocli.CommandLine cl = LycheeCli.newCommandLine();
      cl.setErr(new PrintWriter(err));
      int exit = cl.execute(args);
      return new Run(exit, buffer.toString(StandardCharsets.UTF_8) + err);
    } finally {
      System.setOut(old);
    }
  }

  @Test
  void statusReportsPendingSegmentsOnceEachCauseAndEncodePendingFinishesThem() {
    Path db = dir.resolve("m.db");
    LycheeConfig config = LycheeConfig.builder().segmenter("turn")
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.SYNC).maxAttempts(1).build()).build();
    try (Lychee l = Lychee.create(config, new SqliteStoreModule(db), new OnnxEmbeddingModule(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Encoder.class).toInstance(new RefusingEncoder());
      }
    })) {
      l.append("priya", "s1", LocalDateTime.of(2024, 5, 1, 9, 0), List.of(
          Turn.user("Priya", "I moved to Porto last spring."), Turn.user("Sam", "How do you like the city?"),
          Turn.user("Priya", "I love the river walks at dusk.")));
      assertThat(l.status("priya").segments(SegmentState.PENDING)).isEqualTo(3);
    }

    Run status = run("status", "priya", "--db", db.toString());
    assertThat(status.exit()).isEqualTo(1);
    assertThat(status.out()).contains("3 turns").contains("0 encoded, 3 pending")
        .contains("3 segments left pending: failed in an earlier run:")
        .contains("run `lychee encode --pending priya`");
    assertThat(status.out().lines().filter(line -> line.contains("left pending")).count())
        .as("one line per cause, not one per segment").isEqualTo(1);
    assertThat(status.out()).doesNotContain("\tat ");

    Run encode = run("encode", "--pending", "priya", "--db", db.toString(), "--segmenter", "turn");
    assertThat(encode.exit()).as(encode.out()).isZero();
    assertThat(encode.out()).contains("Encoded 3 segments of namespace priya");

    Run after = run("status", "priya", "--db", db.toString());
    assertThat(after.exit()).isZero();
    assertThat(after.out()).contains("3 encoded, 0 pending");
  }

  @Test
  void encodeWithoutPendingIsAUsageErrorAndBothCommandsHaveHelp() {
    assertThat(run("encode", "priya", "--db", dir.resolve("x.db").toString()).exit()).isEqualTo(2);
    assertThat(run("encode", "--help").out()).contains("--pending").contains("Exit codes");
    assertThat(run("status", "--help").out()).contains("NAMESPACE").contains("Exit codes");
  }
}
