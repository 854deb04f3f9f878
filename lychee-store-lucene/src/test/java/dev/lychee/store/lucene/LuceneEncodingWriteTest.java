package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.Fixtures.entityNode;
import static dev.lychee.store.lucene.Fixtures.record;
import static dev.lychee.store.lucene.Fixtures.twoPendingSegments;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment's encoding on the Lucene store (round twenty-one, measurements.md §6): its merge read
 * is one query per kind, and its documents and its vectors are one writer call each, so neither
 * waits for a background commit's fsyncs on the commit lock.
 */
class LuceneEncodingWriteTest {
  private static final String NS = "alice";
  private static final String S = "s1";

  @TempDir Path dir;

  /** Records and nodes stored by an earlier encoding are merged, read in one query per kind. */
  @Test
  void anEncodingsMergeReadIsOneQueryPerKind() {
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("records"), TestConfigs.FAST)) {
      List<Segment> pending = twoPendingSegments(store, NS, S);
      Segment first = pending.get(0);
      Segment second = pending.get(1);
      MemoryRecord a = record(NS, S, "Nadia sang at the rehearsal.", 0, 1);
      MemoryRecord b = record(NS, S, "Nadia bought a new guitar.", 0, 1);
      MemoryRecord c = record(NS, S, "Omar sold his bike.", 2, 3);
      long before = store.mergeLookups();
      store.commitEncoding(NS, first.id(), List.of(a, b),
          List.of(entityNode(NS, "nadia", S, a.id(), b.id()), entityNode(NS, "rehearsal", S, a.id())));
      assertThat(store.mergeLookups() - before).isEqualTo(2);

      // three records (one stored already) and three nodes (two stored already): still two queries
      before = store.mergeLookups();
      store.commitEncoding(NS, second.id(), List.of(c, a, b),
          List.of(entityNode(NS, "omar", S, c.id()), entityNode(NS, "nadia", S, c.id()),
              entityNode(NS, "rehearsal", S, c.id())));
      assertThat(store.mergeLookups() - before).as("one merge read per kind, not one per id").isEqualTo(2);

      // merged values keep their first position; the stored node took the new record too
      assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(a.id(), b.id(), c.id());
      assertThat(store.nodes(NS, List.of(entityNode(NS, "nadia", S).id())).get(0).recordIds())
          .containsExactly(a.id(), b.id(), c.id());
      assertThat(store.nodes(NS, List.of(entityNode(NS, "omar", S).id()))).hasSize(1);
      assertThat(store.segments(NS)).allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
    }
  }

  /**
   * The ingest looks a segment's nodes up ({@code SegmentCommitter}'s {@code store.nodes}) right
   * before it commits the encoding: the encoding's merge read takes the nodes that look-up decoded
   * at the same reader version from the read cache, and their sequence numbers from doc values, so
   * a stored node is decoded once per segment, not twice (round twenty-three, measurements.md §6);
   * the merged value is the same.
   */
  @Test
  void theMergeReadDecodesNoNodeTheLookUpBeforeItDecoded() {
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("records"), TestConfigs.FAST)) {
      List<Segment> pending = twoPendingSegments(store, NS, S);
      MemoryRecord a = record(NS, S, "Nadia sang at the rehearsal.", 0, 1);
      MemoryRecord c = record(NS, S, "Nadia sold her bike.", 2, 3);
      EvidenceNode nadia = entityNode(NS, "nadia", S, a.id());
      EvidenceNode rehearsal = entityNode(NS, "rehearsal", S, a.id());
      store.commitEncoding(NS, pending.get(0).id(), List.of(a), List.of(nadia, rehearsal));

      List<EvidenceNode> next = List.of(entityNode(NS, "nadia", S, c.id()), entityNode(NS, "rehearsal", S, c.id()));
      assertThat(store.nodes(NS, next.stream().map(EvidenceNode::id).toList())).hasSize(2);
      long before = store.jsonDecodes();
      store.commitEncoding(NS, pending.get(1).id(), List.of(c), next);
      assertThat(store.jsonDecodes() - before).as("the two stored nodes come from the look-up's decoding").isZero();

      assertThat(store.nodes(NS, List.of(nadia.id())).get(0).recordIds()).containsExactly(a.id(), c.id());
      assertThat(store.nodes(NS, List.of(rehearsal.id())).get(0).recordIds()).containsExactly(a.id(), c.id());
      // merged nodes keep their first sequence number: listed by key as before, records in order
      assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(a.id(), c.id());
    }
  }

  /**
   * While a durable write's commit runs its fsyncs (held here), an encoding and a segment's vectors
   * write and return; before round twenty-one both waited for the commit lock the commit holds.
   */
  @Test
  void anEncodingAndItsVectorsDoNotWaitForACommit() throws Exception {
    LuceneStoreConfig config = TestConfigs.FAST.toBuilder().deferredCommit(Duration.ofMinutes(10)).build();
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("records"), config);
        LuceneVectorIndex vectors = new LuceneVectorIndex(dir.resolve("vectors"), config)) {
      List<Segment> pending = twoPendingSegments(store, NS, S);
      Segment first = pending.get(0);
      Segment second = pending.get(1);
      vectors.upsert(NS, VectorIndex.RECORDS, Map.of("old", new float[] {0, 1}));

      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch recordsHeld = hold(store.index(), release);
      CountDownLatch vectorsHeld = hold(vectors.index(), release);
      CompletableFuture<Void> recordsCommit =
          CompletableFuture.runAsync(() -> store.setSegmentState(NS, first.id(), SegmentState.PENDING, "once"));
      CompletableFuture<Void> vectorsCommit =
          CompletableFuture.runAsync(() -> vectors.remove(NS, VectorIndex.RECORDS, List.of("old")));
      try {
        assertThat(recordsHeld.await(1, TimeUnit.MINUTES)).isTrue();
        assertThat(vectorsHeld.await(1, TimeUnit.MINUTES)).isTrue();
        MemoryRecord r = record(NS, S, "Nadia sang at the rehearsal.", 2, 3);
        EvidenceNode n = entityNode(NS, "nadia", S, r.id());
        Map<String, Map<String, float[]>> byKind = new LinkedHashMap<>();
        byKind.put(VectorIndex.RECORDS, Map.of(r.id(), new float[] {1, 0}));
        byKind.put(VectorIndex.nodes(n.kind()), Map.of(n.id(), new float[] {1, 0}));
        CompletableFuture<Void> encoding = CompletableFuture.runAsync(() -> {
          vectors.upsertAll(NS, byKind);
          store.commitEncoding(NS, second.id(), List.of(r), List.of(n));
        });
        // both commits are still held: the writes finish without them
        encoding.get(30, TimeUnit.SECONDS);
        assertThat(recordsCommit).isNotDone();
        assertThat(vectorsCommit).isNotDone();
        assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(r.id());
        assertThat(vectors.search(NS, VectorIndex.RECORDS, new float[] {1, 0}, 5, null))
            .extracting(ScoredId::id).containsExactly(r.id());
      } finally {
        release.countDown();
      }
      recordsCommit.get(1, TimeUnit.MINUTES);
      vectorsCommit.get(1, TimeUnit.MINUTES);
      assertThat(store.segments(NS)).extracting(s -> s.state())
          .containsExactly(SegmentState.PENDING, SegmentState.ENCODED);
    }
  }

  /** Holds the index's next commit, outside the write lock, until {@code release}; counts down once held. */
  private static CountDownLatch hold(LuceneIndex index, CountDownLatch release) {
    CountDownLatch held = new CountDownLatch(1);
    AtomicBoolean once = new AtomicBoolean();
    index.beforeCommit(() -> {
      if (once.compareAndSet(false, true)) {
        held.countDown();
        try {
          release.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    return held;
  }
}
