package dev.lychee.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Module;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.testing.HashingEmbedder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The meters a Micrometer registry sees through {@link MicrometerModule}. */
class MicrometerMetricsTest {

  @Test
  void appendsSegmentsAndReadLatencyAreCounted() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Module embedder = b -> b.bind(Embedder.class).toInstance(new HashingEmbedder());
    LycheeConfig config = LycheeConfig.builder().segmenter("turn").build();
    try (Lychee l = Lychee.create(config, embedder, new MicrometerModule(registry))) {
      IngestResult r = l.append("ns", "s1", LocalDateTime.of(2024, 1, 2, 9, 0), List.of(
          Turn.user("Ada", "I adopted a cat named Pixel."), Turn.user("Ben", "Pixel is a lovely name.")))
          .plus(l.append("ns", "s1", List.of(Turn.user("Ada", "She sleeps on my keyboard."))));
      l.recall("ns", "What is the name of Ada's cat?");

      assertThat(registry.get("lychee.appends").counter().count()).isEqualTo(2);
      assertThat(registry.get("lychee.turns.stored").counter().count()).isEqualTo(3);
      assertThat(registry.get("lychee.segments.closed").counter().count()).isEqualTo(r.segmentsClosed());
      assertThat(registry.get("lychee.segments.encoded").counter().count())
          .isEqualTo(l.status("ns").segments(SegmentState.ENCODED)).isPositive();
      assertThat(registry.get("lychee.segments.pending").gauge().value()).isZero();
      assertThat(registry.get("lychee.read.latency").tag("stage", "recall").timer().count()).isEqualTo(1);
    }
  }
}
