package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A deferred append's turn texts are embedded while its turns are stored ({@link TurnEmbeddingsAhead},
 * docs/defaults.md §3.3): the vectors are the ones an embedding after storing gives, a text that was
 * not embedded ahead is embedded late, and a failure reaches the caller as before.
 */
class TurnEmbeddingsAheadTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /** Remembers every document batch and the thread it ran on; fails on a text holding "boom". */
  private static final class Recording extends EmbedderDecorator {
    final List<List<String>> batches = new ArrayList<>();
    final List<String> threads = new ArrayList<>();

    Recording() {
      super(new HashingEmbedder());
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> texts) {
      batches.add(List.copyOf(texts));
      threads.add(Thread.currentThread().getName());
      if (texts.stream().anyMatch(t -> t.contains("boom"))) {
        throw new IllegalStateException("model failed");
      }
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
  void vectorsComeFromTheBatchStartedAheadAndMissingTextsAreEmbeddedLate() {
    Recording embedder = new Recording();
    try (TurnEmbeddingsAhead ahead = new TurnEmbeddingsAhead(embedder, 1)) {
      TurnEmbeddingsAhead.Pending pending = ahead.start(List.of("a: one", "b: two"));
      List<float[]> vs = pending.vectorsOf(List.of("b: two", "c: three"));
      HashingEmbedder plain = new HashingEmbedder();
      assertThat(vs.get(0)).containsExactly(plain.embedDocuments(List.of("b: two")).get(0));
      assertThat(vs.get(1)).containsExactly(plain.embedDocuments(List.of("c: three")).get(0));
      assertThat(embedder.batches).containsExactly(List.of("a: one", "b: two"), List.of("c: three"));
      assertThat(embedder.threads.get(0)).startsWith("lychee-turn-embed-");
    }
  }

  @Test
  void aFailedEmbeddingIsRethrownByVectorsOfAndSwallowedByDiscard() {
    Recording embedder = new Recording();
    try (TurnEmbeddingsAhead ahead = new TurnEmbeddingsAhead(embedder, 1)) {
      assertThatThrownBy(() -> ahead.start(List.of("x: boom")).vectorsOf(List.of("x: boom")))
          .isInstanceOf(IllegalStateException.class).hasMessage("model failed");
      ahead.start(List.of("x: boom")).discard();
    }
  }

  @Test
  void anAppendWithBackgroundSegmentationIndexesItsTurnsWithTheVectorsOfTheirTexts() {
    Recording embedder = new Recording();
    LycheeConfig config = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).segmentInBackground(true).build())
        .build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config).build()) {
      List<Turn> turns = List.of(Turn.user("Ada", "I adopted a cat named Pixel."),
          Turn.user("Ada", "She sleeps on my keyboard."));
      l.append("ns", "s1", DAY, turns);
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
      float[] second = new HashingEmbedder().embedDocuments(List.of("Ada: She sleeps on my keyboard.")).get(0);
      var hit = l.vectors().search("ns", VectorIndex.TURNS, second, 1, null).get(0);
      assertThat(hit.id()).isEqualTo(l.store().turns("ns", "s1").get(1).id());
      assertThat(hit.score()).isGreaterThan(0.999);
      // the same turns again, at their stored indices: nothing new is stored or indexed
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a cat named Pixel.").withIndex(0)));
      assertThat(l.store().turns("ns", "s1")).hasSize(2);
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
    }
  }
}
