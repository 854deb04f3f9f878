package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.Exchange;
import dev.lychee.api.Segment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An append that segments on the caller's thread embeds its new turns and the session's fresh
 * exchanges in one batch (docs/defaults.md §1.3); with background segmentation the exchanges are
 * embedded by the session's lane instead ({@link BackgroundSegmentationTest}).
 */
class AppendEmbeddingBatchTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /** Remembers the texts of every document batch. */
  private static final class Recording extends EmbedderDecorator {
    final List<List<String>> batches = new ArrayList<>();

    Recording() {
      super(new HashingEmbedder());
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> texts) {
      batches.add(List.copyOf(texts));
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }

    @Override
    public String modelId() {
      return "recording";
    }
  }

  @Test
  void turnsAndTheirExchangesGoToTheEmbedderAsOneBatchWithTheVectorsTheyWouldGetAlone() {
    Recording embedder = new Recording();
    // background encoding, segmenting on the caller's thread: the append itself embeds only its
    // turns and exchanges
    LycheeConfig config = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).segmentInBackground(false).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a cat named Pixel."),
          Turn.assistant("What a lovely name for a cat."), Turn.user("Ada", "She sleeps on my keyboard.")));
      assertThat(embedder.batches).hasSize(1);
      List<String> batch = embedder.batches.get(0);
      assertThat(batch).containsExactly("Ada: I adopted a cat named Pixel.", "What a lovely name for a cat.",
          "Ada: She sleeps on my keyboard.",
          "user: Ada: I adopted a cat named Pixel.\nassistant: What a lovely name for a cat.",
          "user: Ada: She sleeps on my keyboard.");
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(3);
      float[] alone = new HashingEmbedder().embedDocuments(List.of(batch.get(0))).get(0);
      assertThat(l.vectors().search("ns", VectorIndex.TURNS, alone, 1, null).get(0).id())
          .isEqualTo(l.store().turns("ns", "s1").get(0).id());

      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "Pixel turned one today.")));
      assertThat(embedder.batches.get(1)).containsExactly("Ada: Pixel turned one today.", "user: Ada: Pixel turned one today.");
      l.awaitIdle("ns", java.time.Duration.ofMinutes(1));
    }
  }

  @Test
  void aTurnThatIsAnExchangeOnItsOwnCanTakeTheExchangesVector() {
    Recording embedder = new Recording();
    LycheeConfig config = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).turnVectorsFromExchanges(true).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a cat named Pixel."),
          Turn.assistant("What a lovely name for a cat."), Turn.user("Ada", "She sleeps on my keyboard.")));
      // the first two turns share an exchange and keep their own vectors; the third is one on its own
      assertThat(embedder.batches.get(0)).containsExactly("Ada: I adopted a cat named Pixel.",
          "What a lovely name for a cat.",
          "user: Ada: I adopted a cat named Pixel.\nassistant: What a lovely name for a cat.",
          "user: Ada: She sleeps on my keyboard.");
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(3);
      float[] exchange = new HashingEmbedder().embedDocuments(List.of("user: Ada: She sleeps on my keyboard.")).get(0);
      var hit = l.vectors().search("ns", VectorIndex.TURNS, exchange, 1, null).get(0);
      assertThat(hit.id()).isEqualTo(l.store().turns("ns", "s1").get(2).id());
      assertThat(hit.score()).isGreaterThan(0.9999);
      l.awaitIdle("ns", java.time.Duration.ofMinutes(1));
    }
  }

  @Test
  void aOneTurnExchangeCanTakeItsTurnsVectorWhileALongerExchangeIsEmbedded() {
    Recording embedder = new Recording();
    List<Exchange> offered = new ArrayList<>();
    LycheeConfig config = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).segmentInBackground(false).build())
        .segmentation(SegmentationConfig.builder().exchangeVectorsFromTurns(true).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).module(recordingSegmenter(offered)).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a cat named Pixel."),
          Turn.assistant("What a lovely name for a cat."), Turn.user("Ada", "She sleeps on my keyboard.")));
      // the two-turn exchange is embedded as ever; the one-turn exchange's text is its turn's,
      // which the batch holds once
      assertThat(embedder.batches).hasSize(1);
      assertThat(embedder.batches.get(0)).containsExactly("Ada: I adopted a cat named Pixel.",
          "What a lovely name for a cat.", "Ada: She sleeps on my keyboard.",
          "user: Ada: I adopted a cat named Pixel.\nassistant: What a lovely name for a cat.");
      HashingEmbedder alone = new HashingEmbedder();
      assertThat(offered).hasSize(2);
      assertThat(offered.get(0).vector()).containsExactly(alone.embedDocuments(List.of(
          "user: Ada: I adopted a cat named Pixel.\nassistant: What a lovely name for a cat.")).get(0));
      float[] turn = alone.embedDocuments(List.of("Ada: She sleeps on my keyboard.")).get(0);
      assertThat(offered.get(1).vector()).containsExactly(turn);
      // the turn channel is untouched: the turn keeps the vector of its own text
      var hit = l.vectors().search("ns", VectorIndex.TURNS, turn, 1, null).get(0);
      assertThat(hit.id()).isEqualTo(l.store().turns("ns", "s1").get(2).id());
      assertThat(hit.score()).isGreaterThan(0.9999);

      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "Pixel turned one today.")));
      assertThat(embedder.batches.get(1)).containsExactly("Ada: Pixel turned one today.");
      assertThat(offered.get(2).vector()).containsExactly(alone.embedDocuments(List.of("Ada: Pixel turned one today.")).get(0));
    }
  }

  @Test
  void withoutTheOptionAOneTurnExchangeIsEmbeddedWithItsRoleLine() {
    Recording embedder = new Recording();
    List<Exchange> offered = new ArrayList<>();
    LycheeConfig config = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).segmentInBackground(false).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).module(recordingSegmenter(offered)).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "Pixel turned one today.")));
      assertThat(embedder.batches.get(0)).containsExactly("Ada: Pixel turned one today.", "user: Ada: Pixel turned one today.");
      assertThat(offered.get(0).vector()).containsExactly(
          new HashingEmbedder().embedDocuments(List.of("user: Ada: Pixel turned one today.")).get(0));
    }
  }

  /** A segmenter that keeps every exchange it is offered and never closes a segment. */
  private static Module recordingSegmenter(List<Exchange> offered) {
    return new AbstractModule() {
      @Provides
      @Singleton
      Segmenter.Factory factory() {
        return new Segmenter.Factory() {
          @Override
          public Segmenter create(String namespace, String session) {
            return new Segmenter() {
              @Override
              public List<Segment> offer(Exchange exchange) {
                offered.add(exchange);
                return List.of();
              }

              @Override
              public List<Segment> flush() {
                return List.of();
              }
            };
          }

          @Override
          public String name() {
            return "recording";
          }
        };
      }
    };
  }
}
