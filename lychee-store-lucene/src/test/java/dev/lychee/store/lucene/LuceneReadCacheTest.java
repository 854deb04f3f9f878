package dev.lychee.store.lucene;

import static dev.lychee.core.conformance.StoreFixtures.node;
import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.StoreFixtures;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caches of the Lucene store and vector index are tied to the reader version: every value read
 * before a commit must be read again after it, on both sides of every kind of write.
 */
class LuceneReadCacheTest {
  @TempDir Path dir;

  @Test
  void everyCommitRetiresCachedValues() {
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("records"), TestConfigs.FAST)) {
      store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "lychee jam"), turn("ns", "s", 1, "more jam")));
      MemoryRecord r = record("ns", "Ann likes lychee jam.", TurnRef.of("s", 0));
      EvidenceNode n = node("ns", NodeKind.TAG, "jam", "Tag: jam", List.of(r.id()), "s", null);
      StoreWrites.records(store, "ns", List.of(r));
      StoreWrites.nodes(store, "ns", List.of(n));

      assertThat(store.records("ns", List.of(r.id()))).singleElement()
          .satisfies(x -> assertThat(x.evidence()).hasSize(1));
      assertThat(store.nodes("ns", List.of(n.id()))).hasSize(1);
      assertThat(store.nodes("ns", NodeKind.TAG)).hasSize(1);
      assertThat(store.turns("ns", List.of(TurnRef.of("s", 1), TurnRef.of("s", 0), TurnRef.of("s", 9))))
          .extracting(RawTurn::index).containsExactly(1, 0);
      assertThat(store.turns("ns", "s", 0, 5)).hasSize(2);
      assertThat(store.searchText("ns", TextField.TURNS, "jam", 10)).hasSize(2);

      StoreWrites.records(store, "ns", List.of(record("ns", "Ann likes lychee jam.", TurnRef.of("s", 1))));
      assertThat(store.records("ns", List.of(r.id()))).singleElement()
          .satisfies(x -> assertThat(x.evidence()).hasSize(2));
      store.appendTurns("ns", "s", List.of(turn("ns", "s", 2, "jam again")));
      assertThat(store.turns("ns", "s", 0, 5)).extracting(RawTurn::index).containsExactly(0, 1, 2);
      assertThat(store.searchText("ns", TextField.TURNS, "jam", 10)).extracting(ScoredId::id).hasSize(3);

      store.forget("ns", "s");
      assertThat(store.records("ns", List.of(r.id()))).isEmpty();
      assertThat(store.nodes("ns", List.of(n.id()))).isEmpty();
      assertThat(store.nodes("ns", NodeKind.TAG)).isEmpty();
      assertThat(store.turns("ns", List.of(TurnRef.of("s", 0)))).isEmpty();
      assertThat(store.turns("ns", "s", 0, 5)).isEmpty();
      assertThat(store.searchText("ns", TextField.TURNS, "jam", 10)).isEmpty();
    }
  }

  @Test
  void listingsFollowCommits() {
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("listings"), TestConfigs.FAST)) {
      List<RawTurn> turns = List.of(turn("ns", "s", 0, "lychee"), turn("ns", "s", 1, "jam"));
      store.appendTurns("ns", "s", turns);
      Segment seg = StoreFixtures.segment(turns, CloseReason.TARGET_LENGTH);
      store.putSegment(seg, SegmentState.PENDING);
      assertThat(store.segments("ns")).singleElement().satisfies(x -> assertThat(x.state()).isEqualTo(SegmentState.PENDING));
      assertThat(store.records("ns")).isEmpty();
      assertThat(store.nodes("ns", NodeKind.TAG)).isEmpty();

      MemoryRecord r = record("ns", "Ann likes lychee jam.", TurnRef.of("s", 0));
      EvidenceNode n = node("ns", NodeKind.TAG, "jam", "Tag: jam", List.of(r.id()), "s", null);
      store.commitEncoding("ns", seg.id(), List.of(r), List.of(n));
      assertThat(store.segments("ns")).singleElement().satisfies(x -> assertThat(x.state()).isEqualTo(SegmentState.ENCODED));
      assertThat(store.records("ns")).extracting(MemoryRecord::id).containsExactly(r.id());
      assertThat(store.nodes("ns", NodeKind.TAG)).hasSize(1);

      store.forget("ns");
      assertThat(store.segments("ns")).isEmpty();
      assertThat(store.records("ns")).isEmpty();
      assertThat(store.nodes("ns", NodeKind.TAG)).isEmpty();
    }
  }

  @Test
  void loadedVectorsFollowUpsertsRemovesAndForget() {
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("vectors"), TestConfigs.FAST)) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("a", new float[] {1, 0}, "b", new float[] {0, 1}));
      float[] q = {1, 0.1f};
      assertThat(index.search("ns", VectorIndex.TURNS, q, 1, null)).extracting(ScoredId::id).containsExactly("a");
      assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(2);

      index.upsert("ns", VectorIndex.TURNS, Map.of("a", new float[] {-1, 0}));
      assertThat(index.search("ns", VectorIndex.TURNS, q, 1, null)).extracting(ScoredId::id).containsExactly("b");
      index.upsert("ns", VectorIndex.TURNS, Map.of("c", new float[] {1, 0}));
      assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(3);
      assertThat(index.search("ns", VectorIndex.TURNS, q, 1, null)).extracting(ScoredId::id).containsExactly("c");

      index.remove("ns", VectorIndex.TURNS, List.of("c"));
      assertThat(index.search("ns", VectorIndex.TURNS, q, 1, null)).extracting(ScoredId::id).containsExactly("b");
      assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(2);

      index.forget("ns");
      assertThat(index.search("ns", VectorIndex.TURNS, q, 1, null)).isEmpty();
      assertThat(index.size("ns", VectorIndex.TURNS)).isZero();
    }
  }

  @Test
  void disabledCachesStillAnswer() {
    LuceneStoreConfig off = TestConfigs.FAST.toBuilder().readCacheMaxEntries(0).vectorCacheMaxBytes(0).build();
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("r0"), off);
        LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("v0"), off)) {
      store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "lychee")));
      assertThat(store.turns("ns", List.of(TurnRef.of("s", 0)))).hasSize(1);
      index.upsert("ns", VectorIndex.TURNS, Map.of("a", new float[] {1, 0}));
      assertThat(index.search("ns", VectorIndex.TURNS, new float[] {1, 0}, 1, null)).hasSize(1);
      assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(1);
    }
  }
}
