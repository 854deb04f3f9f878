package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The write path states which embeddings someone waits for (docs/defaults.md §7): an append's
 * turns and exchanges are foreground, the background encoder's records and nodes background, and
 * a segment encoded on the caller's thread is foreground.
 */
class EmbeddingPriorityTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /** Remembers each document batch with its priority; a batch without a hint counts as foreground. */
  private static final class Recording extends EmbedderDecorator {
    record Batch(List<String> texts, EmbeddingPriority priority) {}

    final List<Batch> batches = new ArrayList<>();

    Recording() {
      super(new HashingEmbedder());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return embedDocuments(texts, EmbeddingPriority.FOREGROUND);
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
      batches.add(new Batch(List.copyOf(texts), priority));
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }

    synchronized List<Batch> snapshot() {
      return List.copyOf(batches);
    }
  }

  private static final List<Turn> TURNS = List.of(Turn.user("Ada", "I adopted a cat named Pixel."),
      Turn.assistant("What a lovely name for a cat."), Turn.user("Ada", "She sleeps on my keyboard."));

  private static List<String> turnAndExchangeTexts() {
    return List.of("Ada: I adopted a cat named Pixel.", "What a lovely name for a cat.", "Ada: She sleeps on my keyboard.",
        "user: Ada: I adopted a cat named Pixel.\nassistant: What a lovely name for a cat.",
        "user: Ada: She sleeps on my keyboard.");
  }

  @Test
  void backgroundSegmentationAsksForForegroundTurnVectorsAndBackgroundExchangeVectors() {
    Recording embedder = new Recording();
    LycheeConfig config = LycheeConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).build()) {
      l.append("ns", "s1", DAY, TURNS);
      l.flush("ns", "s1");
      assertThat(l.awaitIdle("ns", Duration.ofMinutes(1))).isTrue();
      List<Recording.Batch> batches = embedder.snapshot();
      // the caller waits for its turns' vectors only; the session's lane embeds the exchanges
      assertThat(batches.get(0)).isEqualTo(new Recording.Batch(turnAndExchangeTexts().subList(0, 3),
          EmbeddingPriority.FOREGROUND));
      assertThat(batches.get(1)).isEqualTo(new Recording.Batch(turnAndExchangeTexts().subList(3, 5),
          EmbeddingPriority.BACKGROUND));
      List<Recording.Batch> rest = batches.subList(2, batches.size());
      assertThat(rest).isNotEmpty().allSatisfy(b -> assertThat(b.priority()).isEqualTo(EmbeddingPriority.BACKGROUND));
      assertThat(l.status("ns").segments(dev.lychee.api.SegmentState.ENCODED)).isEqualTo(1);
    }
  }

  @Test
  void backgroundEncodingAsksForBackgroundVectorsAndAppendsForForegroundOnes() {
    Recording embedder = new Recording();
    LycheeConfig config = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).segmentInBackground(false).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).build()) {
      l.append("ns", "s1", DAY, TURNS);
      l.flush("ns", "s1");
      assertThat(l.awaitIdle("ns", Duration.ofMinutes(1))).isTrue();
      List<Recording.Batch> batches = embedder.snapshot();
      assertThat(batches.get(0)).isEqualTo(new Recording.Batch(turnAndExchangeTexts(), EmbeddingPriority.FOREGROUND));
      // the records and nodes of the segment the flush closed
      List<Recording.Batch> rest = batches.subList(1, batches.size());
      assertThat(rest).isNotEmpty().allSatisfy(b -> assertThat(b.priority()).isEqualTo(EmbeddingPriority.BACKGROUND));
      assertThat(l.status("ns").segments(dev.lychee.api.SegmentState.ENCODED)).isEqualTo(1);
    }
  }

  @Test
  void segmentsEncodedOnTheCallersThreadAskForForegroundVectors() {
    Recording embedder = new Recording();
    LycheeConfig config = LycheeConfig.builder().encodeMode(IngestConfig.EncodeMode.SYNC).build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).build()) {
      l.append("ns", "s1", DAY, TURNS);
      l.flush("ns", "s1");
      List<Recording.Batch> batches = embedder.snapshot();
      assertThat(batches).hasSizeGreaterThan(1)
          .allSatisfy(b -> assertThat(b.priority()).isEqualTo(EmbeddingPriority.FOREGROUND));
      assertThat(l.status("ns").segments(dev.lychee.api.SegmentState.ENCODED)).isEqualTo(1);
    }
  }
}
