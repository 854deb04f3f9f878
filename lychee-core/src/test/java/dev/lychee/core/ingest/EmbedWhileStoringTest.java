package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link IngestConfig#embedWhileStoring()}: with background segmentation an append embeds its turns
 * on a pool thread while its caller stores them, and the vectors, failures and the "nothing stored,
 * nothing indexed" rule stay what they are when the embedding follows the commit.
 */
class EmbedWhileStoringTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /** Logs every turn-text batch (texts starting with a speaker) with the thread that embedded it. */
  private static final class Watching extends EmbedderDecorator {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final List<String> threads = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch turnEmbeddingStarted = new CountDownLatch(1);
    final AtomicBoolean turnsFail = new AtomicBoolean();

    Watching() {
      super(new HashingEmbedder());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      if (texts.stream().allMatch(t -> t.startsWith("Ada: "))) {
        events.add("embed turns");
        threads.add(Thread.currentThread().getName());
        turnEmbeddingStarted.countDown();
        if (turnsFail.get()) {
          throw new IllegalStateException("embedding service unavailable");
        }
      }
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }

    @Override
    public String modelId() {
      return "watching";
    }
  }

  /**
   * A store whose {@code appendTurns} logs when it returns, can fail, and can wait (bounded) until
   * the turns' embedding has started: proof that the two run at once.
   */
  private static RecordStore watchedStore(Watching embedder, AtomicBoolean waitForEmbedding, AtomicBoolean fail,
      AtomicBoolean sawEmbeddingFirst) {
    RecordStore inner = new InMemoryRecordStore();
    return (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(), new Class<?>[] {RecordStore.class},
        (proxy, method, args) -> {
          boolean append = method.getName().equals("appendTurns");
          if (append && fail.get()) {
            throw new IllegalStateException("disk full");
          }
          if (append && waitForEmbedding.get()) {
            sawEmbeddingFirst.set(embedder.turnEmbeddingStarted.await(10, TimeUnit.SECONDS));
          }
          try {
            Object out = method.invoke(inner, args);
            if (append) {
              embedder.events.add("stored");
            }
            return out;
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static LycheeConfig config(boolean embedWhileStoring) {
    return LycheeConfig.builder().ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC)
        .embedWhileStoring(embedWhileStoring).build()).build();
  }

  private static List<Turn> turns() {
    return List.of(Turn.user("Ada", "I adopted a cat named Pixel."), Turn.user("Ada", "She sleeps on my keyboard."));
  }

  @Test
  void theTurnsAreEmbeddedOnAPoolThreadWhileTheStoreCommitsAndIndexedUnderTheirStoredIds() {
    Watching embedder = new Watching();
    AtomicBoolean sawEmbeddingFirst = new AtomicBoolean();
    RecordStore store = watchedStore(embedder, new AtomicBoolean(true), new AtomicBoolean(), sawEmbeddingFirst);
    try (Lychee l = Lychee.builder().embedder(embedder).store(store).config(config(true)).build()) {
      IngestResult r = l.append("ns", "s1", DAY, turns());
      assertThat(r.turnsStored()).isEqualTo(2);
      assertThat(r.failures()).isEmpty();
      assertThat(sawEmbeddingFirst).as("the embedding started while appendTurns had not returned").isTrue();
      // the first turn-text batch is the append's (the session's lane runs after it returns)
      assertThat(embedder.threads.get(0)).startsWith("lychee-turn-embed-");
      assertThat(embedder.threads).doesNotContain(Thread.currentThread().getName());
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
      // each stored turn is found by the vector its own text gets
      for (var turn : l.store().turns("ns", "s1")) {
        float[] own = new HashingEmbedder().embedDocuments(List.of(turn.speaker() + ": " + turn.text())).get(0);
        assertThat(l.vectors().search("ns", VectorIndex.TURNS, own, 1, null).get(0).id()).isEqualTo(turn.id());
      }
      assertThat(l.awaitIdle("ns", Duration.ofSeconds(30))).isTrue();
    }
  }

  @Test
  void switchedOffTheCallerEmbedsAfterTheCommit() {
    Watching embedder = new Watching();
    RecordStore store = watchedStore(embedder, new AtomicBoolean(), new AtomicBoolean(), new AtomicBoolean());
    try (Lychee l = Lychee.builder().embedder(embedder).store(store).config(config(false)).build()) {
      l.append("ns", "s1", DAY, turns());
      // the first turn-text batch is the append's (the session's lane runs after it returns)
      assertThat(embedder.events.subList(0, 2)).containsExactly("stored", "embed turns");
      assertThat(embedder.threads.get(0)).isEqualTo(Thread.currentThread().getName());
      assertThat(embedder.threads).noneMatch(t -> t.startsWith("lychee-turn-embed-"));
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
    }
  }

  @Test
  void aStoreFailureThrowsAndIndexesNothing() {
    Watching embedder = new Watching();
    AtomicBoolean fail = new AtomicBoolean(true);
    RecordStore store = watchedStore(embedder, new AtomicBoolean(), fail, new AtomicBoolean());
    try (Lychee l = Lychee.builder().embedder(embedder).store(store).config(config(true)).build()) {
      assertThatThrownBy(() -> l.append("ns", "s1", DAY, turns())).hasMessageContaining("disk full");
      assertThat(l.store().countTurns("ns")).isZero();
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isZero();

      fail.set(false);
      assertThat(l.append("ns", "s1", DAY, turns()).turnsStored()).isEqualTo(2);
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
    }
  }

  @Test
  void anEmbeddingFailureIsReportedWithTheTurnsStoredAndTheirVectorsRestoredLater() {
    Watching embedder = new Watching();
    embedder.turnsFail.set(true);
    RecordStore store = watchedStore(embedder, new AtomicBoolean(), new AtomicBoolean(), new AtomicBoolean());
    try (Lychee l = Lychee.builder().embedder(embedder).store(store).config(config(true)).build()) {
      IngestResult r = l.append("ns", "s1", DAY, turns());
      assertThat(r.turnsStored()).isEqualTo(2);
      assertThat(r.failures()).singleElement()
          .satisfies(f -> assertThat(f.message()).contains("stored, but embedding them failed", "embedding service unavailable"));
      assertThat(l.store().countTurns("ns")).isEqualTo(2);
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isZero();

      embedder.turnsFail.set(false);
      l.encodePending("ns");
      assertThat(l.vectors().size("ns", VectorIndex.TURNS)).isEqualTo(2);
    }
  }
}
