package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Role;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Background segmentation ({@link IngestConfig#segmentInBackground()}): the caller's thread stores
 * and indexes the turns, the session's lane segments them; the result is the segmentation the
 * caller's thread would have made.
 */
class BackgroundSegmentationTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);
  private static final Duration IDLE = Duration.ofMinutes(1);

  /** Holds every background embedding until released, and counts them. */
  private static final class Gated extends EmbedderDecorator {
    final CountDownLatch release = new CountDownLatch(1);
    final List<String> foreground = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile int background;

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
        try {
          release.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        background++;
      } else {
        foreground.addAll(texts);
      }
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }
  }

  private static LycheeConfig config(boolean segmentInBackground) {
    return LycheeConfig.builder().ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC)
        .segmentInBackground(segmentInBackground).build()).build();
  }

  private static List<Turn> conversation() {
    List<Turn> out = new ArrayList<>();
    String[] topics = {"my cat Pixel", "the hike up the ridge", "the new job at the bakery", "my sister's wedding"};
    for (int i = 0; i < 24; i++) {
      String topic = topics[i / 6];
      out.add(i % 2 == 0 ? Turn.user("Ada", "Turn " + i + ": let me tell you about " + topic + ".")
          : Turn.assistant("Turn " + i + ": that sounds nice, tell me more about " + topic + "."));
    }
    return out;
  }

  @Test
  void aTurnIsStoredIndexedAndRecallableWhenAppendReturnsBeforeItIsSegmented() throws Exception {
    Gated embedder = new Gated();
    try (Lychee l = Lychee.builder().embedder(embedder).config(config(true)).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a kitten named Tok and she loves tuna.")));
      // an explicit index after every stored turn (as a client that numbers its turns sends it)
      l.append("ns", "s1", DAY, List.of(Turn.assistant("Tok sounds like a lovely companion.").withIndex(1)));
      // every background embedding is held: nothing is segmented yet, and the turns are searchable
      assertThat(embedder.background).isZero();
      assertThat(embedder.foreground).containsExactly("Ada: I adopted a kitten named Tok and she loves tuna.",
          "Tok sounds like a lovely companion.");
      assertThat(l.store().segments("ns")).isEmpty();
      assertThat(l.store().countTurns("ns")).isEqualTo(2);
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
      assertThat(l.recall("ns", "What is the name of Ada's kitten?").evidence())
          .anySatisfy(e -> assertThat(e.candidate().text()).contains("kitten named Tok"));

      embedder.release.countDown();
      assertThat(l.flush("ns", "s1").segmentsClosed()).isPositive();
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      assertThat(embedder.background).isPositive();
      assertThat(l.store().segments("ns")).allMatch(s -> s.state() == SegmentState.ENCODED);
    }
  }

  @Test
  void theLanesMakeTheSegmentsTheCallersThreadWouldMakeAndFlushCountsThem() {
    List<String> onCaller = segments(false, false);
    assertThat(segments(true, false)).isNotEmpty().isEqualTo(onCaller);
    assertThat(segments(true, true)).isEqualTo(onCaller);
  }

  /**
   * Appends the conversation one turn per call (with its index when {@code numbered}), flushes, and
   * describes the encoded segments.
   */
  private static List<String> segments(boolean segmentInBackground, boolean numbered) {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(config(segmentInBackground)).build()) {
      int closed = 0;
      List<Turn> turns = conversation();
      for (int i = 0; i < turns.size(); i++) {
        Turn t = numbered ? turns.get(i).withIndex(i) : turns.get(i);
        closed += l.append("ns", "s1", DAY, List.of(t)).segmentsClosed();
      }
      closed += l.flush("ns", "s1").segmentsClosed();
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      List<StoredSegment> stored = l.store().segments("ns");
      // every closed segment is counted once, by the append or the flush that returns it
      assertThat(closed).isEqualTo(stored.size());
      assertThat(stored).allMatch(s -> s.state() == SegmentState.ENCODED);
      return stored.stream().map(StoredSegment::segment)
          .sorted(Comparator.comparingInt(s -> s.turns().get(0).index()))
          .map(s -> s.turns().get(0).index() + "-" + s.turns().get(s.turns().size() - 1).index() + " " + s.reason())
          .toList();
    }
  }

  @Test
  void aLateTurnWithAnExplicitIndexStillLandsInExactlyOneSegment() {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(config(true)).build()) {
      List<Turn> turns = conversation();
      for (int i = 0; i < 10; i++) {
        l.append("ns", "s1", DAY, List.of(turns.get(i)));
      }
      l.append("ns", "s1", DAY, List.of(new Turn(Role.USER, "Ada", "A turn sent with a far index.", 20, null)));
      // below what the segmenter has seen: a late turn
      l.append("ns", "s1", DAY, List.of(new Turn(Role.USER, "Ada", "A turn sent late.", 15, null)));
      for (int i = 10; i < 13; i++) {
        l.append("ns", "s1", DAY, List.of(turns.get(i)));
      }
      l.flush("ns", "s1");
      assertThat(l.awaitIdle("ns", IDLE)).isTrue();
      List<Integer> covered = new ArrayList<>();
      l.store().segments("ns").forEach(s -> s.segment().turns().forEach(t -> covered.add(t.index())));
      assertThat(covered).doesNotHaveDuplicates().hasSize((int) l.store().countTurns("ns"));
    }
  }
}
