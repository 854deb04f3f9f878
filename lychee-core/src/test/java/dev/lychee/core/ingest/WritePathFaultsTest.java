package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnConflictException;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, write path: no exception escapes {@code append}/{@code flush} once turns are stored,
 * no orphan vectors, late turns are segmented, session keys cannot alias, and the smaller input
 * faults of item 9. Each test failed before its fix (noted per test).
 */
class WritePathFaultsTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  /**
   * An embedder that fails for texts that are not turns or exchanges (those start with the speaker
   * or the role), that is for record and node texts, while {@code failing} is set.
   */
  private static final class RecordEmbeddingOutage extends EmbedderDecorator {
    final AtomicBoolean failing = new AtomicBoolean(true);

    RecordEmbeddingOutage() {
      super(new HashingEmbedder());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      if (failing.get() && texts.stream().anyMatch(t -> !(t.startsWith("Ada: ") || t.startsWith("Ben: ") || t.startsWith("user: ")))) {
        throw new dev.lychee.api.ProviderException("http://127.0.0.1:9/v1/embeddings", 503,
            "POST http://127.0.0.1:9/v1/embeddings answered 503", null);
      }
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }

    @Override
    public String modelId() {
      return "outage";
    }
  }

  private static List<Turn> turns(int from, int count) {
    List<Turn> out = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      out.add(Turn.user(i % 2 == 0 ? "Ada" : "Ben", "Turn number " + i + ": Ada adopted a cat named Pixel in Lisbon."));
    }
    return out;
  }

  private static List<Turn> indexed(int from, int count) {
    List<Turn> out = new ArrayList<>();
    List<Turn> base = turns(from, count);
    for (int i = 0; i < count; i++) {
      out.add(base.get(i).withIndex(from + i));
    }
    return out;
  }

  private static LycheeConfig sync(String segmenter) {
    return LycheeConfig.builder().segmenter(segmenter).encodeMode(IngestConfig.EncodeMode.SYNC).build();
  }

  /** Item 1. Before: the 503 for record texts escaped flush() with the turns already stored. */
  @Test
  void anEmbedderFailureForRecordsLeavesTheSegmentPendingWithoutOrphanVectors() {
    RecordEmbeddingOutage embedder = new RecordEmbeddingOutage();
    try (Lychee l = Lychee.builder().embedder(embedder).config(sync("turn")).build()) {
      IngestResult r = l.append("ns", "s1", DAY, turns(0, 4)).plus(l.flush("ns", "s1"));
      assertThat(r.turnsStored()).isEqualTo(4);
      assertThat(r.failures()).isNotEmpty().allMatch(f -> f.kind().contains("503"));
      assertThat(l.store().segments("ns")).isNotEmpty().allMatch(s -> s.state() == SegmentState.PENDING && s.error() != null);
      assertThat(l.vectors().size("ns", VectorIndex.RECORDS)).isZero();
      assertThat(l.store().records("ns")).isEmpty();
      int covered = l.store().segments("ns").stream().mapToInt(s -> s.segment().turns().size()).sum();
      assertThat(covered).as("every stored turn lies in a (pending) segment").isEqualTo(4);

      embedder.failing.set(false);
      IngestResult retry = l.encodePending("ns");
      assertThat(retry.failures()).isEmpty();
      assertThat(l.store().segments("ns")).allMatch(s -> s.state() == SegmentState.ENCODED);
      assertThat(l.vectors().size("ns", VectorIndex.RECORDS)).isEqualTo(l.store().records("ns").size()).isPositive();
    }
  }

  /** Item 1. Before: a failing commit escaped append() and left record vectors for uncommitted records. */
  @Test
  void aFailingCommitLeavesTheSegmentPendingAndRemovesTheVectorsItWrote() {
    AtomicBoolean commitFails = new AtomicBoolean(true);
    RecordStore store = failingCommit(new InMemoryRecordStore(), commitFails);
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).store(store).config(sync("turn")).build()) {
      IngestResult r = l.append("ns", "s1", DAY, turns(0, 3));
      assertThat(r.failures()).isNotEmpty().allMatch(f -> f.message().contains("document too large"));
      assertThat(l.vectors().size("ns", VectorIndex.RECORDS)).isZero();
      for (dev.lychee.api.NodeKind kind : dev.lychee.api.NodeKind.values()) {
        assertThat(l.vectors().size("ns", VectorIndex.nodes(kind))).as(kind.name()).isZero();
      }
      // the caller did not see an exception, so it does not re-send: nothing is duplicated
      assertThat(l.store().countTurns("ns")).isEqualTo(3);
      commitFails.set(false);
      l.encodePending("ns");
      assertThat(l.store().segments("ns")).isNotEmpty().allMatch(s -> s.state() == SegmentState.ENCODED);
    }
  }

  private static RecordStore failingCommit(RecordStore inner, AtomicBoolean fails) {
    return (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(), new Class<?>[] {RecordStore.class},
        (proxy, method, args) -> {
          if (method.getName().equals("commitEncoding") && fails.get()) {
            throw new IllegalStateException("document too large for the index");
          }
          try {
            return method.invoke(inner, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /** Item 3. Before: turns 3-4, stored after 5-9 were segmented, were never part of any segment. */
  @Test
  void lateTurnsWithExplicitIndicesAreSegmentedAndEncoded() {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(sync("semantic")).build()) {
      l.append("ns", "s1", DAY, indexed(0, 3));
      l.append("ns", "s1", DAY, indexed(5, 5));
      l.flush("ns", "s1");
      l.append("ns", "s1", DAY, indexed(3, 2));
      l.flush("ns", "s1");
      l.encodePending("ns");
      assertCoveredOnce(l.store().segments("ns"), 10);
      assertThat(l.store().segments("ns")).allMatch(s -> s.state() == SegmentState.ENCODED);
      assertThat(l.store().records("ns")).anyMatch(r -> r.evidence().contains(TurnRef.of("s1", 3)));
    }
  }

  /** Item 3 after a restart: uncovered stored turns below the segmented range are found again. */
  @Test
  void lateTurnsLeftUncoveredByAnEarlierProcessAreSegmentedOnTheNextFlush() {
    InMemoryRecordStore store = new InMemoryRecordStore();
    RecordStore keepOpen = (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(),
        new Class<?>[] {RecordStore.class}, (proxy, method, args) -> method.getName().equals("close") ? null
            : invoke(method, store, args));
    Lychee first = Lychee.builder().embedder(new HashingEmbedder()).store(keepOpen).config(sync("semantic")).build();
    first.append("ns", "s1", DAY, indexed(0, 3));
    first.append("ns", "s1", DAY, indexed(5, 5));
    first.flush("ns", "s1");
    // simulate the old writer, which stored the late turns and never segmented them
    store.appendTurns("ns", "s1", List.of(raw(3), raw(4)));
    first.close();
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).store(keepOpen).config(sync("semantic")).build()) {
      l.flush("ns", "s1");
      assertCoveredOnce(l.store().segments("ns"), 10);
    }
  }

  /** An embedder that fails every call while {@code failing} is set (an embedding endpoint that is down). */
  private static final class EmbedderOutage extends EmbedderDecorator {
    final AtomicBoolean failing = new AtomicBoolean();

    EmbedderOutage() {
      super(new HashingEmbedder());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      if (failing.get()) {
        throw new dev.lychee.api.ProviderException("http://127.0.0.1:9/v1/embeddings", 503,
            "POST http://127.0.0.1:9/v1/embeddings answered 503", null);
      }
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }
  }

  /** {@code target} with {@code close()} ignored, so that it outlives one Lychee and serves the next (a reopen). */
  @SuppressWarnings("unchecked")
  private static <T> T keptOpen(Class<T> type, T target) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, method, args) -> method.getName().equals("close") ? null : invoke(method, target, args));
  }

  /**
   * Review C F3. Before: turns whose embedding failed during {@code append} were stored without a
   * vector and stayed invisible to vector search until someone called {@code encodePending}; the
   * next open now rebuilds them, and {@code status} counts them meanwhile.
   */
  @Test
  void turnVectorsAnAppendFailedToWriteAreRebuiltByTheNextOpen() {
    RecordStore store = keptOpen(RecordStore.class, new InMemoryRecordStore());
    VectorIndex vectors = keptOpen(VectorIndex.class, new dev.lychee.core.vector.ExactVectorIndex());
    EmbedderOutage embedder = new EmbedderOutage();
    try (Lychee first = Lychee.builder().embedder(embedder).store(store).vectors(vectors).config(sync("turn")).build()) {
      first.append("ns", "s1", DAY, turns(0, 2));
      embedder.failing.set(true);
      IngestResult r = first.append("ns", "s1", DAY, turns(2, 3));
      assertThat(r.turnsStored()).isEqualTo(3);
      assertThat(r.failures()).isNotEmpty().allMatch(f -> f.kind().contains("503"));
      assertThat(vectors.size("ns", VectorIndex.TURNS)).isEqualTo(2);
      assertThat(first.status("ns").turnsWithoutVectors()).isEqualTo(3);
      embedder.failing.set(false);
    }
    try (Lychee reopened = Lychee.builder().embedder(embedder).store(store).vectors(vectors).config(sync("turn")).build()) {
      // no encodePending: the open rebuilt them
      assertThat(vectors.size("ns", VectorIndex.TURNS)).isEqualTo(5);
      assertThat(reopened.status("ns").turnsWithoutVectors()).isZero();
      RawTurn lost = store.turns("ns", "s1").get(3);
      assertThat(vectors.search("ns", VectorIndex.TURNS, embedder.embedQuery(lost.text()), 1, null))
          .extracting(dev.lychee.api.ScoredId::id).containsExactly(lost.id());
    }
  }

  /** A failing embedder at open does not fail the open: the turns stay counted as without vectors. */
  @Test
  void anEmbedderThatFailsAtOpenLeavesTheTurnsCountedAndTheOpenWorks() {
    RecordStore store = keptOpen(RecordStore.class, new InMemoryRecordStore());
    VectorIndex vectors = keptOpen(VectorIndex.class, new dev.lychee.core.vector.ExactVectorIndex());
    EmbedderOutage embedder = new EmbedderOutage();
    try (Lychee first = Lychee.builder().embedder(embedder).store(store).vectors(vectors).config(sync("turn")).build()) {
      embedder.failing.set(true);
      first.append("ns", "s1", DAY, turns(0, 2));
    }
    try (Lychee reopened = Lychee.builder().embedder(embedder).store(store).vectors(vectors).config(sync("turn")).build()) {
      assertThat(reopened.status("ns").turnsWithoutVectors()).isEqualTo(2);
      embedder.failing.set(false);
      reopened.encodePending("ns");
      assertThat(reopened.status("ns").turnsWithoutVectors()).isZero();
    }
  }

  private static Object invoke(java.lang.reflect.Method m, Object target, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static RawTurn raw(int index) {
    return new RawTurn("ns", TurnRef.of("s1", index), dev.lychee.api.Role.USER, "Ada", "Late turn " + index + " about Pixel.", DAY);
  }

  private static void assertCoveredOnce(List<StoredSegment> segments, int turns) {
    List<Integer> covered = new ArrayList<>();
    segments.forEach(s -> s.segment().turns().forEach(t -> covered.add(t.index())));
    assertThat(covered).as("every turn in exactly one segment").hasSize(turns).doesNotHaveDuplicates();
  }

  /**
   * Item 5. Before: the map key "a" + NUL + "b" + NUL + "c" was shared by (a, b NUL c) and (a NUL b, c).
   * Control characters are now refused in names, and names holding printable separators (the colon
   * of turn and segment ids) still keep their namespaces apart.
   */
  @Test
  void aFlushOfOneNamespaceNeverClosesAnotherNamespacesSegment() {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(sync("semantic")).build()) {
      assertThatThrownBy(() -> l.append("a\u0000b", "c", DAY, turns(0, 2)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("control characters");
      assertThat(l.store().countTurns("a\u0000b")).isZero();
      l.append("a:b", "c", DAY, turns(0, 2));
      l.append("a", "b:c", DAY, turns(0, 1));
      // appending to another session of "a" flushes "a"'s other open sessions, and only those
      l.append("a", "other", DAY, turns(0, 1));
      assertThat(l.store().segments("a:b")).as("still open in its own namespace").isEmpty();
      assertThat(l.store().segments("a")).isNotEmpty().allMatch(s -> s.segment().namespace().equals("a"));
    }
  }

  /** Item 9. Before: an explicit Integer.MAX_VALUE was stored, then every unindexed append threw. */
  @Test
  void anIndexAboveTheMaximumIsRefusedAndUnindexedAppendsKeepWorking() {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(sync("turn")).build()) {
      assertThatThrownBy(() -> l.append("ns", "s1", DAY, List.of(turns(0, 1).get(0).withIndex(Integer.MAX_VALUE))))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("highest allowed turn index");
      assertThat(l.store().countTurns("ns")).isZero();
      l.append("ns", "s1", DAY, List.of(turns(0, 1).get(0).withIndex(TurnAdmission.MAX_INDEX)));
      assertThatThrownBy(() -> l.append("ns", "s1", DAY, turns(1, 1)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no free turn index");
      assertThat(l.append("ns", "s2", DAY, turns(0, 2)).turnsStored()).isEqualTo(2);
    }
  }

  /** Item 9. Before: a session date of LocalDateTime.MIN/MAX was stored and its segment stayed PENDING forever. */
  @Test
  void aSessionDateOutsideYearsOneToNineThousandIsRefusedBeforeStoring() {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(sync("turn")).build()) {
      for (LocalDateTime bad : List.of(LocalDateTime.MIN, LocalDateTime.MAX)) {
        assertThatThrownBy(() -> l.append("ns", "s1", bad, turns(0, 2)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("years 1 to 9999");
        assertThatThrownBy(() -> l.append("ns", "s1", DAY, List.of(turns(0, 1).get(0).withTime(bad))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("time of turn 0");
      }
      assertThat(l.store().countTurns("ns")).isZero();
      assertThat(l.store().segments("ns")).isEmpty();
    }
  }

  /** Item 9. Before: the second text under a stored index was dropped without a word. */
  @Test
  void aStoredIndexSentAgainWithAnotherTextIsAConflictAndTheSameTextIsANoOp() {
    try (Lychee l = Lychee.builder().embedder(new HashingEmbedder()).config(sync("turn")).build()) {
      l.append("ns", "s1", DAY, indexed(0, 2));
      assertThat(l.append("ns", "s1", DAY, indexed(0, 2)).turnsStored()).isZero();
      List<Turn> changed = List.of(indexed(2, 1).get(0), Turn.user("Ada", "Something else entirely.").withIndex(1));
      assertThatThrownBy(() -> l.append("ns", "s1", DAY, changed))
          .isInstanceOfSatisfying(TurnConflictException.class,
              e -> assertThat(e.conflicts()).containsExactly(TurnRef.of("s1", 1)))
          .hasMessageContaining("Nothing of this call was stored");
      assertThat(l.store().countTurns("ns")).as("turn 2 of the refused call was not stored either").isEqualTo(2);
      assertThat(l.store().turn("ns", TurnRef.of("s1", 1)).orElseThrow().text()).startsWith("Turn number 1");
    }
  }
}
