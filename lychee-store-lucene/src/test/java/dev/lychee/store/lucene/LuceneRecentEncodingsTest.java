package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.Fixtures.entityNode;
import static dev.lychee.store.lucene.Fixtures.record;
import static dev.lychee.store.lucene.Fixtures.segment;
import static dev.lychee.store.lucene.Fixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingest's node look-up before an encoding ({@code SegmentCommitter}'s {@code store.nodes}) and
 * the encoding's merge read answer what the encodings since the last reopen wrote from the store's
 * view of them ({@link RecentEncodings}), so that encodings in a row reopen the searchers no more
 * (one reopen per segment before, each flushing a tiny segment: round twenty-five, measurements.md
 * §6), and still see, and merge into, every earlier encoding exactly as reopened searchers would;
 * through {@code forget}, a refused encoding and a process that dies with the encodings only in the
 * write-ahead log.
 */
class LuceneRecentEncodingsTest {
  private static final String NS = "alice";
  private static final String S = "s1";
  private static final int SEGMENTS = 8;

  @TempDir Path dir;

  /** A session's segments as a flush leaves them: all pending, then encoded one after another. */
  private static List<Segment> pendingSegments(LuceneRecordStore store) {
    List<RawTurn> all = turns(NS, S, 0, 2 * SEGMENTS);
    store.appendTurns(NS, S, all);
    List<Segment> segments = new ArrayList<>();
    for (int i = 0; i < SEGMENTS; i++) {
      Segment seg = segment(all.subList(2 * i, 2 * i + 2));
      assertThat(store.putSegment(seg, SegmentState.PENDING)).isTrue();
      segments.add(seg);
    }
    return segments;
  }

  private static MemoryRecord recordOf(int i) {
    return record(NS, S, "Nadia sang at rehearsal number " + i + ".", 2 * i, 2 * i + 1);
  }

  /**
   * Encodes the segments as the ingest does (look-up of the node, then the encoding), returning the
   * reopens the look-ups and encodings made; {@code reopenBetween} reads every record in between,
   * which reopens the searchers on each encoding (what the look-up itself did before).
   */
  private static long encodeAll(LuceneRecordStore store, List<Segment> segments, boolean reopenBetween) {
    long reopens = 0;
    List<String> recordIds = new ArrayList<>();
    for (int i = 0; i < segments.size(); i++) {
      if (reopenBetween) {
        store.records(NS);
      }
      MemoryRecord r = recordOf(i);
      EvidenceNode n = entityNode(NS, "nadia", S, r.id());
      long before = store.index().reopens();
      List<EvidenceNode> stored = store.nodes(NS, List.of(n.id()));
      assertThat(stored).hasSize(i == 0 ? 0 : 1);
      if (i > 0) {
        assertThat(stored.get(0).recordIds()).as("the look-up sees every earlier encoding")
            .containsExactlyElementsOf(recordIds);
      }
      store.commitEncoding(NS, segments.get(i).id(), List.of(r), List.of(n));
      reopens += store.index().reopens() - before;
      recordIds.add(r.id());
    }
    return reopens;
  }

  @Test
  void encodingsInARowReopenNothingAndMergeAsAfterAReopen() {
    List<EvidenceNode> viewNodes;
    List<MemoryRecord> viewRecords;
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("view"), TestConfigs.FAST)) {
      List<Segment> segments = pendingSegments(store);
      // main: one reopen per look-up after the first encoding (SEGMENTS - 1)
      assertThat(encodeAll(store, segments, false)).isZero();
      assertThat(store.recentEncodings()).as("the view holds the encodings since the last reopen").isPositive();
      viewNodes = store.nodes(NS, NodeKind.ENTITY);
      viewRecords = store.records(NS);
      assertThat(store.segments(NS)).extracting(StoredSegment::state).containsOnly(SegmentState.ENCODED);
    }
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("reopened"), TestConfigs.FAST)) {
      List<Segment> segments = pendingSegments(store);
      assertThat(encodeAll(store, segments, true)).isZero();
      // the same merged node (record ids in order) and the same records in the same order
      assertThat(store.nodes(NS, NodeKind.ENTITY)).isEqualTo(viewNodes);
      assertThat(store.records(NS)).isEqualTo(viewRecords);
    }
    assertThat(viewNodes).hasSize(1);
    assertThat(viewNodes.get(0).recordIds()).hasSize(SEGMENTS);
    assertThat(viewRecords).extracting(MemoryRecord::id)
        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, SEGMENTS).mapToObj(i -> recordOf(i).id()).toList());
  }

  @Test
  void aForgetAndARefusedEncodingDropTheViewAndTheLookUpStillSeesTheIndex() {
    try (LuceneRecordStore store = new LuceneRecordStore(dir, TestConfigs.FAST)) {
      List<Segment> segments = pendingSegments(store);
      MemoryRecord r0 = recordOf(0);
      EvidenceNode n0 = entityNode(NS, "nadia", S, r0.id());
      store.commitEncoding(NS, segments.get(0).id(), List.of(r0), List.of(n0));
      assertThat(store.recentEncodings()).isPositive();

      // refused before it wrote anything: the view is dropped, the node comes from the index
      assertThatThrownBy(() -> store.commitEncoding(NS, "no-such-segment", List.of(recordOf(1)), List.of()))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(store.recentEncodings()).isZero();
      assertThat(store.nodes(NS, List.of(n0.id()))).containsExactly(n0);

      MemoryRecord r1 = recordOf(1);
      store.commitEncoding(NS, segments.get(1).id(), List.of(r1), List.of(entityNode(NS, "nadia", S, r1.id())));
      assertThat(store.nodes(NS, List.of(n0.id()))).singleElement()
          .satisfies(n -> assertThat(n.recordIds()).containsExactly(r0.id(), r1.id()));

      // forget: the view is dropped and the forgotten node is gone for the look-up and the merge
      store.forget(NS, S);
      assertThat(store.recentEncodings()).isZero();
      assertThat(store.nodes(NS, List.of(n0.id()))).isEmpty();
      List<Segment> again = pendingSegments(store);
      MemoryRecord r2 = recordOf(2);
      store.commitEncoding(NS, again.get(2).id(), List.of(r2), List.of(entityNode(NS, "nadia", S, r2.id())));
      assertThat(store.nodes(NS, List.of(n0.id()))).singleElement()
          .satisfies(n -> assertThat(n.recordIds()).containsExactly(r2.id()));
    }
  }

  /**
   * Encodings that no reopen followed are in the write-ahead log only (the commit is an hour off): a
   * process that dies then has every one of them back, merged as written.
   */
  @Test
  void encodingsWrittenWithoutAReopenSurviveACrashThroughTheLog() throws Exception {
    LuceneStoreConfig logged = LuceneStoreConfig.builder().deferredCommit(Duration.ofHours(1)).build();
    Path live = dir.resolve("live");
    Path crashed = dir.resolve("crashed");
    List<String> recordIds = new ArrayList<>();
    try (LuceneRecordStore store = new LuceneRecordStore(live, logged)) {
      List<Segment> segments = pendingSegments(store);
      assertThat(encodeAll(store, segments, false)).isZero();
      segments.forEach(s -> recordIds.add(recordOf(segments.indexOf(s)).id()));
      DiskCopy.asIfCrashed(live, crashed);
    }
    try (LuceneRecordStore store = new LuceneRecordStore(crashed, logged)) {
      assertThat(store.segments(NS)).hasSize(SEGMENTS).extracting(StoredSegment::state)
          .containsOnly(SegmentState.ENCODED);
      assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactlyElementsOf(recordIds);
      assertThat(store.nodes(NS, List.of(entityNode(NS, "nadia", S).id()))).singleElement()
          .satisfies(n -> assertThat(n.recordIds()).containsExactlyElementsOf(recordIds));
    }
  }

  /**
   * A look-up running beside the encodings (background encoders, a recall) sees the node as some
   * encoding left it, never a mix or a step back: its record ids are a prefix of the final ones and
   * grow from one look-up to the next.
   */
  @Test
  void aLookUpBesideTheEncodingsSeesThemInOrder() throws Exception {
    try (LuceneRecordStore store = new LuceneRecordStore(dir, TestConfigs.FAST)) {
      List<Segment> segments = pendingSegments(store);
      String nodeId = entityNode(NS, "nadia", S).id();
      List<List<String>> seen = new CopyOnWriteArrayList<>();
      AtomicBoolean done = new AtomicBoolean();
      CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
        while (!done.get()) {
          List<EvidenceNode> found = store.nodes(NS, List.of(nodeId));
          seen.add(found.isEmpty() ? List.of() : found.get(0).recordIds());
          if (seen.size() % 7 == 0) {
            store.records(NS); // a reopen now and then, as a recall's reads make
          }
        }
      });
      try {
        encodeAll(store, segments, false);
      } finally {
        done.set(true);
        reader.get();
      }
      List<String> all = store.nodes(NS, List.of(nodeId)).get(0).recordIds();
      assertThat(all).hasSize(SEGMENTS);
      int last = 0;
      for (List<String> ids : seen) {
        assertThat(all.subList(0, ids.size())).isEqualTo(ids);
        assertThat(ids.size()).isGreaterThanOrEqualTo(last);
        last = ids.size();
      }
    }
  }
}
