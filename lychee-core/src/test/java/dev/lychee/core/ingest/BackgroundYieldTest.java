package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Background encoding steps aside while an append is in progress (docs/defaults.md §7): a segment
 * queued while another session's append waits for its embeddings is not worked on until that
 * append returns, or until the bounded wait has passed.
 */
class BackgroundYieldTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /** Holds foreground batches with a marked text until released; counts background batches. */
  private static final class Gated extends EmbedderDecorator {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger background = new AtomicInteger();

    Gated() {
      super(new HashingEmbedder());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return embedDocuments(texts, EmbeddingPriority.FOREGROUND);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts, EmbeddingPriority priority) {
      if (priority == EmbeddingPriority.BACKGROUND) {
        background.incrementAndGet();
      } else if (texts.stream().anyMatch(t -> t.contains("HOLD"))) {
        entered.countDown();
        try {
          release.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }
  }

  private static final List<Turn> TURNS = List.of(Turn.user("Ada", "I adopted a cat named Pixel."),
      Turn.assistant("What a lovely name for a cat."), Turn.user("Ada", "She sleeps on my keyboard."));

  private static Lychee open(Gated embedder, Duration yield) {
    // the yield concerns encoding attempts; segmentation runs on the caller's thread here, so that
    // the only background embeddings are the encoder's
    LycheeConfig config = LycheeConfig.builder().ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC)
        .flushOtherSessions(false).backgroundYield(yield).segmentInBackground(false).build()).build();
    return Lychee.builder().embedder(embedder).config(config).build();
  }

  @Test
  void aQueuedSegmentWaitsForTheAppendInProgress() throws Exception {
    Gated embedder = new Gated();
    try (Lychee l = open(embedder, Duration.ofMinutes(1))) {
      CompletableFuture<?> held = CompletableFuture.runAsync(
          () -> l.append("ns", "other", DAY, List.of(Turn.user("Bo", "HOLD this line please."))));
      assertThat(embedder.entered.await(1, TimeUnit.MINUTES)).isTrue();
      l.append("ns", "s1", DAY, TURNS);
      assertThat(l.flush("ns", "s1").segmentsQueued()).isEqualTo(1);
      // the background encoder may look, but does no work while the held append is in progress
      Thread.sleep(300);
      assertThat(embedder.background.get()).isZero();
      assertThat(l.status("ns").segments(SegmentState.ENCODED)).isZero();
      embedder.release.countDown();
      held.get(1, TimeUnit.MINUTES);
      assertThat(l.awaitIdle("ns", Duration.ofMinutes(1))).isTrue();
      assertThat(embedder.background.get()).isPositive();
      assertThat(l.status("ns").segments(SegmentState.ENCODED)).isEqualTo(1);
    }
  }

  @Test
  void theWaitIsBoundedSoEndlessAppendsCannotStallEncoding() throws Exception {
    Gated embedder = new Gated();
    try (Lychee l = open(embedder, Duration.ofMillis(20))) {
      CompletableFuture<?> held = CompletableFuture.runAsync(
          () -> l.append("ns", "other", DAY, List.of(Turn.user("Bo", "HOLD this line please."))));
      assertThat(embedder.entered.await(1, TimeUnit.MINUTES)).isTrue();
      l.append("ns", "s1", DAY, TURNS);
      l.flush("ns", "s1");
      // encoded while the other append is still held
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (l.status("ns").segments(SegmentState.ENCODED) == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(l.status("ns").segments(SegmentState.ENCODED)).isEqualTo(1);
      assertThat(held).isNotDone();
      embedder.release.countDown();
      held.get(1, TimeUnit.MINUTES);
    }
  }

  @Test
  void theYieldIsValidated() {
    assertThat(IngestConfig.defaults().backgroundYield()).isEqualTo(Duration.ZERO);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IngestConfig.builder().backgroundYield(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
