package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.Fixtures.entityNode;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static dev.lychee.store.lucene.Fixtures.record;
import static dev.lychee.store.lucene.Fixtures.segment;
import static dev.lychee.store.lucene.Fixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lucene-specific behaviour of the record store: round trips through disk, isolation, hostile text. */
class LuceneRecordStoreFocusedTest {
  @TempDir Path dir;
  RecordStore store;

  @BeforeEach
  void open() {
    store = LuceneRecordStore.open(dir, TestConfigs.FAST);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private void reopen() {
    store.close();
    store = LuceneRecordStore.open(dir, TestConfigs.FAST);
  }

  @Test
  void turnsRoundTripThroughReopenAndAppendIsIdempotent() {
    List<RawTurn> first = turns("alice", "s1", 0, 4);
    assertThat(store.appendTurns("alice", "s1", first)).isEqualTo(first);
    reopen();
    assertThat(store.turns("alice", "s1")).isEqualTo(first);
    List<RawTurn> again = turns("alice", "s1", 2, 4);
    assertThat(store.appendTurns("alice", "s1", again)).containsExactly(again.get(2), again.get(3));
    assertThat(store.turns("alice", "s1")).extracting(RawTurn::index).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(store.nextTurnIndex("alice", "s1")).isEqualTo(6);
    assertThat(store.turns("alice", "s1", 2, 3)).extracting(RawTurn::index).containsExactly(2, 3);
    assertThat(store.turns("alice", "s1", -5, 100)).hasSize(6);
    assertThat(store.turn("alice", TurnRef.of("s1", 1))).contains(first.get(1));
    assertThat(store.countTurns("alice")).isEqualTo(6);
  }

  @Test
  void sessionsAndNamespacesKeepFirstStoredOrder() {
    store.appendTurns("bob", "zeta", turns("bob", "zeta", 0, 1));
    store.appendTurns("alice", "beta", turns("alice", "beta", 0, 1));
    store.appendTurns("bob", "alpha", turns("bob", "alpha", 0, 1));
    store.appendTurns("bob", "zeta", turns("bob", "zeta", 1, 1));
    assertThat(store.sessions("bob")).containsExactly("zeta", "alpha");
    assertThat(store.namespaces()).containsExactly("bob", "alice");
    reopen();
    assertThat(store.sessions("bob")).containsExactly("zeta", "alpha");
  }

  @Test
  void segmentsKeepStateAndNanScoresAcrossReopen() {
    List<RawTurn> t = turns("alice", "s1", 0, 6);
    store.appendTurns("alice", "s1", t);
    Segment a = segment(t.subList(0, 3));
    Segment b = segment(t.subList(3, 6));
    store.putSegment(b, SegmentState.PENDING);
    store.putSegment(a, SegmentState.PENDING);
    store.setSegmentState("alice", b.id(), SegmentState.FAILED, "timeout");
    reopen();
    assertThat(store.segments("alice")).containsExactly(
        new StoredSegment(a, SegmentState.PENDING, null), new StoredSegment(b, SegmentState.FAILED, "timeout"));
    assertThat(store.segments("alice").get(0).segment().probability()).isNaN();
    assertThat(store.segmentedThrough("alice", "s1")).isEqualTo(5);
    assertThat(store.segmentedThrough("alice", "s2")).isEqualTo(-1);
    assertThatThrownBy(() -> store.setSegmentState("alice", "s1:9-9", SegmentState.ENCODED, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void commitEncodingWritesRecordsNodesAndStateTogether() {
    List<RawTurn> t = turns("alice", "s1", 0, 4);
    store.appendTurns("alice", "s1", t);
    Segment seg = segment(t);
    store.putSegment(seg, SegmentState.PENDING);
    MemoryRecord r = record("alice", "s1", "Nadia went to the community choir rehearsal.", 0, 1);
    EvidenceNode n = entityNode("alice", "nadia", "s1", r.id());
    store.commitEncoding("alice", seg.id(), List.of(r), List.of(n));
    reopen();
    assertThat(store.segments("alice")).singleElement().extracting(StoredSegment::state).isEqualTo(SegmentState.ENCODED);
    assertThat(storedRecord("alice", r.id())).contains(r);
    assertThat(storedNode("alice", n.id())).contains(n);
  }

  @Test
  void commitEncodingOfUnknownSegmentWritesNothing() {
    MemoryRecord r = record("alice", "s1", "A statement.", 0);
    assertThatThrownBy(() -> store.commitEncoding("alice", "s1:0-0", List.of(r), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.records("alice")).isEmpty();
    // and the writer is still usable after the rollback
    StoreWrites.records(store, "alice", List.of(r));
    assertThat(store.records("alice")).containsExactly(r);
  }

  @Test
  void aWriteFailingHalfWayLeavesNothingBehindForLaterCommits() {
    List<RawTurn> t = turns("alice", "s1", 0, 2);
    store.appendTurns("alice", "s1", t);
    Segment seg = segment(t);
    store.putSegment(seg, SegmentState.PENDING);
    MemoryRecord r = record("alice", "s1", "Written before the failure.", 0);
    // a key too large for Lucene's doc values fails after the record was already handed to the writer
    EvidenceNode bad = entityNode("alice", "k".repeat(40_000), "s1", r.id());
    assertThatThrownBy(() -> store.commitEncoding("alice", seg.id(), List.of(r), List.of(bad)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.records("alice")).isEmpty();
    assertThat(store.segments("alice")).singleElement().extracting(StoredSegment::state).isEqualTo(SegmentState.PENDING);
    store.appendTurns("alice", "s1", turns("alice", "s1", 2, 1));
    reopen();
    assertThat(store.records("alice")).isEmpty();
    assertThat(store.nodes("alice", NodeKind.ENTITY)).isEmpty();
    assertThat(store.countTurns("alice")).isEqualTo(3);
    assertThat(store.searchText("alice", TextField.TURNS, "turn", Integer.MAX_VALUE)).hasSize(3);
  }

  @Test
  void recordsMergeProvenanceAndKeepFirstInsertionOrder() {
    MemoryRecord a = record("alice", "s1", "First statement.", 0);
    MemoryRecord b = record("alice", "s1", "Second statement.", 1);
    MemoryRecord a2 = record("alice", "s2", "First statement.", 5);
    StoreWrites.records(store, "alice", List.of(a, b));
    StoreWrites.records(store, "alice", List.of(a2));
    reopen();
    assertThat(store.records("alice")).extracting(MemoryRecord::text).containsExactly("First statement.", "Second statement.");
    MemoryRecord merged = storedRecord("alice", a.id()).orElseThrow();
    assertThat(merged).isEqualTo(a.mergedWith(a2));
    assertThat(merged.evidence()).containsExactly(TurnRef.of("s1", 0), TurnRef.of("s2", 5));
    assertThat(store.records("alice", List.of(b.id(), "nope", a.id()))).extracting(MemoryRecord::id)
        .containsExactly(b.id(), a.id());
  }

  @Test
  void nodesMergeAndListByKey() {
    EvidenceNode z = entityNode("alice", "zoe", "s1", "r1");
    EvidenceNode c = entityNode("alice", "nadia", "s1", "r1");
    EvidenceNode c2 = new EvidenceNode(null, "alice", NodeKind.ENTITY, "nadia", "Nadia", "Entity: nadia\nmore",
        List.of("r2"), List.of("s2"), List.of(), List.of("x"), null, List.of());
    StoreWrites.nodes(store, "alice", List.of(z, c));
    StoreWrites.nodes(store, "alice", List.of(c2));
    assertThat(store.nodes("alice", NodeKind.ENTITY)).extracting(EvidenceNode::key).containsExactly("nadia", "zoe");
    assertThat(storedNode("alice", c.id())).contains(c.mergedWith(c2));
    assertThat(store.nodes("alice", NodeKind.TAG)).isEmpty();
    assertThat(store.nodes("alice", List.of(z.id(), c.id()))).extracting(EvidenceNode::key).containsExactly("zoe", "nadia");
  }

  @Test
  void namespacesAreIsolated() {
    store.appendTurns("alice", "s1", turns("alice", "s1", 0, 3));
    store.appendTurns("bob", "s1", turns("bob", "s1", 0, 2));
    MemoryRecord ra = record("alice", "s1", "Shared sentence about painting.", 0);
    MemoryRecord rb = record("bob", "s1", "Shared sentence about painting.", 0);
    StoreWrites.records(store, "alice", List.of(ra));
    StoreWrites.records(store, "bob", List.of(rb));
    assertThat(ra.id()).isEqualTo(rb.id());
    assertThat(storedRecord("bob", ra.id())).contains(rb);
    assertThat(store.searchText("bob", TextField.TURNS, "turn number", 10)).hasSize(2);
    assertThat(store.searchText("carol", TextField.RECORDS, "painting", 10)).isEmpty();
    Forgotten gone = store.forget("alice");
    assertThat(gone.turnIds()).hasSize(3);
    assertThat(gone.recordIds()).containsExactly(ra.id());
    assertThat(storedRecord("bob", ra.id())).contains(rb);
    assertThat(store.countTurns("bob")).isEqualTo(2);
    assertThat(store.namespaces()).containsExactly("bob");
  }

  @Test
  void lexicalSearchRanksByBm25OverTurnsAndRecords() {
    store.appendTurns("alice", "s1", List.of(
        Fixtures.turn("alice", "s1", 0, "I went hiking in the mountains yesterday"),
        Fixtures.turn("alice", "s1", 1, "The weather was lovely"),
        Fixtures.turn("alice", "s1", 2, "Hiking hikes hiked: I love hiking")));
    List<ScoredId> hits = store.searchText("alice", TextField.TURNS, "hiking", 10);
    assertThat(hits).extracting(ScoredId::id).containsExactly("episode:s1:2", "episode:s1:0");
    assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    // speaker prefix is part of the searchable content
    assertThat(store.searchText("alice", TextField.TURNS, "nadia", 10)).extracting(ScoredId::id)
        .containsExactlyInAnyOrder("episode:s1:0", "episode:s1:2");
    MemoryRecord r = record("alice", "s1", "Rafael painted a sunrise.", 0);
    StoreWrites.records(store, "alice", List.of(r));
    assertThat(store.searchText("alice", TextField.RECORDS, "paintings", 5)).extracting(ScoredId::id).containsExactly(r.id());
    assertThat(store.searchText("alice", TextField.RECORDS, "choir rehearsal event", 5)).extracting(ScoredId::id).containsExactly(r.id());
    assertThat(store.searchText("alice", TextField.TURNS, "hiking", 1)).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "\"", "\"unclosed phrase", "AND OR NOT", "*", "?ing", "(((", ")", "a:b:c",
      "title:[* TO *]", "{!lucene}", "~2 ^3 +- !", "\\", "/regex/", "hiking AND (", "山登り が 好き", "🙂🙂",
      "the of and"})
  void hostileQueryTextNeverThrows(String query) {
    store.appendTurns("alice", "s1", List.of(Fixtures.turn("alice", "s1", 0, "I went hiking")));
    assertThat(store.searchText("alice", TextField.TURNS, query, 5)).isNotNull();
    assertThat(store.searchText("alice", TextField.RECORDS, query, 5)).isEmpty();
  }

  @Test
  void hugeQueryIsCappedInsteadOfExceedingTheClauseLimit() {
    store.appendTurns("alice", "s1", List.of(Fixtures.turn("alice", "s1", 0, "word7 appears here")));
    StringBuilder q = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      q.append("word").append(i).append(' ');
    }
    assertThat(store.searchText("alice", TextField.TURNS, q.toString(), 5)).extracting(ScoredId::id)
        .containsExactly("episode:s1:0");
  }

  @Test
  void forgetSessionPrunesRecordsAndNodes() {
    store.appendTurns("alice", "s1", turns("alice", "s1", 0, 2));
    store.appendTurns("alice", "s2", turns("alice", "s2", 0, 2));
    Segment seg = segment(turns("alice", "s1", 0, 2));
    MemoryRecord onlyS1 = record("alice", "s1", "Only in one.", 0);
    MemoryRecord both = record("alice", "s1", "In both.", 1).mergedWith(record("alice", "s2", "In both.", 0));
    EvidenceNode dies = entityNode("alice", "dies", "s1", onlyS1.id());
    EvidenceNode lives = entityNode("alice", "lives", "s1", onlyS1.id(), both.id());
    StoreWrites.encode(store, seg, List.of(onlyS1, both), List.of(dies, lives));

    Forgotten gone = store.forget("alice", "s1");
    assertThat(gone.turnIds()).containsExactly("episode:s1:0", "episode:s1:1");
    assertThat(gone.recordIds()).containsExactly(onlyS1.id());
    assertThat(gone.nodeIds()).containsExactly(dies.id());
    assertThat(store.turns("alice", "s1")).isEmpty();
    assertThat(store.segments("alice")).isEmpty();
    assertThat(store.sessions("alice")).containsExactly("s2");
    assertThat(storedRecord("alice", both.id()).orElseThrow().evidence()).containsExactly(TurnRef.of("s2", 0));
    assertThat(storedNode("alice", lives.id()).orElseThrow().recordIds()).containsExactly(both.id());
    assertThat(store.countTurns("alice")).isEqualTo(2);
  }

  @Test
  void rejectsBadArgumentsAndCallsAfterClose() {
    assertThatThrownBy(() -> store.turns(" ", "s")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns("alice", "", List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns("alice", "s2", turns("alice", "s1", 0, 1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.turns("nobody", "s")).isEmpty();
    store.close();
    assertThatThrownBy(() -> store.countTurns("alice")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> store.appendTurns("alice", "s1", turns("alice", "s1", 0, 1)))
        .isInstanceOf(IllegalStateException.class);
    store = LuceneRecordStore.open(dir, TestConfigs.FAST);
  }

  @Test
  void concurrentAppendsToDistinctSessionsAllLand() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> jobs = new java.util.ArrayList<>();
      for (int s = 0; s < 4; s++) {
        String session = "s" + s;
        jobs.add(pool.submit(() -> {
          for (int i = 0; i < 10; i++) {
            store.appendTurns("alice", session, turns("alice", session, i * 2, 2));
            store.searchText("alice", TextField.TURNS, "turn", 3);
          }
        }));
      }
      for (Future<?> f : jobs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(store.countTurns("alice")).isEqualTo(80);
    assertThat(store.sessions("alice")).hasSize(4);
  }

  private Optional<MemoryRecord> storedRecord(String namespace, String id) {
    return store.records(namespace, List.of(id)).stream().findFirst();
  }

  private Optional<EvidenceNode> storedNode(String namespace, String id) {
    return store.nodes(namespace, List.of(id)).stream().findFirst();
  }
}
