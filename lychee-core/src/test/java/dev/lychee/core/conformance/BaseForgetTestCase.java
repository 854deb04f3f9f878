package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.day;
import static dev.lychee.core.conformance.StoreFixtures.node;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.CloseReason;
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
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.api.spi.VectorIndex;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of {@link dev.lychee.api.spi.RecordStore#forget}: a namespace goes whole and
 * alone; a session takes its turns and segments, prunes records and nodes that cited it, and
 * reports exactly the ids a caller must drop from the vector index.
 * {@link BaseRecordStoreTestCase} runs it against every backend.
 */
public abstract class BaseForgetTestCase extends StoreCase {

  @Test
  void forgetNamespaceRemovesEverythingAndOnlyThat() {
    fillSmall("a");
    fillSmall("b");
    Forgotten f = store.forget("a");
    assertThat(f.turnIds()).hasSize(6);
    assertThat(f.recordIds()).hasSize(3);
    assertThat(f.nodeIds()).hasSize(2);
    reopenIfSupported();
    assertThat(store.countTurns("a")).isZero();
    assertThat(store.sessions("a")).isEmpty();
    assertThat(store.segments("a")).isEmpty();
    assertThat(store.records("a")).isEmpty();
    assertThat(store.nodes("a", NodeKind.ENTITY)).isEmpty();
    assertThat(store.searchText("a", TextField.TURNS, "lychee", 10)).isEmpty();
    assertThat(store.searchText("a", TextField.RECORDS, "lychee", 10)).isEmpty();
    assertThat(store.namespaces()).containsExactly("b");
    assertThat(store.countTurns("b")).isEqualTo(6);
    assertThat(store.records("b")).hasSize(3);
    assertThat(store.searchText("b", TextField.TURNS, "lychee", 10)).hasSize(6);
    assertThat(store.forget("never-used")).isEqualTo(new Forgotten(List.of(), List.of(), List.of()));
    // the namespace can be used again afterwards
    store.appendTurns("a", "s1", List.of(turn("a", "s1", 0, "back again")));
    assertThat(store.turns("a", "s1")).hasSize(1);
  }

  @Test
  void forgetSessionCascadesToRecordsAndNodes() {
    fillSmall("a");
    fillSmall("b");
    VectorIndex vectors = companionIndex();
    Map<String, float[]> turnVectors = new HashMap<>();
    Map<String, float[]> recordVectors = new HashMap<>();
    Map<String, float[]> nodeVectors = new HashMap<>();
    Random rnd = new Random(5);
    for (String s : store.sessions("a")) {
      store.turns("a", s).forEach(t -> turnVectors.put(t.id(), unit(rnd, 4)));
    }
    store.records("a").forEach(r -> recordVectors.put(r.id(), unit(rnd, 4)));
    store.nodes("a", NodeKind.ENTITY).forEach(n -> nodeVectors.put(n.id(), unit(rnd, 4)));
    vectors.upsert("a", VectorIndex.TURNS, turnVectors);
    vectors.upsert("a", VectorIndex.RECORDS, recordVectors);
    vectors.upsert("a", VectorIndex.nodes(NodeKind.ENTITY), nodeVectors);

    MemoryRecord onlyS1 = record("a", "Lychee only in s1.", TurnRef.of("s1", 0));
    MemoryRecord both = record("a", "Lychee in both sessions.", TurnRef.of("s1", 1), TurnRef.of("s2", 1));
    MemoryRecord onlyS2 = record("a", "Lychee only in s2.", TurnRef.of("s2", 2));
    Forgotten f = store.forget("a", "s1");
    reopenIfSupported();
    vectors.remove("a", VectorIndex.TURNS, f.turnIds());
    vectors.remove("a", VectorIndex.RECORDS, f.recordIds());
    vectors.remove("a", VectorIndex.nodes(NodeKind.ENTITY), f.nodeIds());

    assertThat(f.turnIds()).containsExactlyInAnyOrder("episode:s1:0", "episode:s1:1", "episode:s1:2");
    assertThat(f.recordIds()).containsExactly(onlyS1.id());
    EvidenceNode s1Node = node("a", NodeKind.ENTITY, "only-s1", "", List.of(), "s1", null);
    EvidenceNode mixedNode = node("a", NodeKind.ENTITY, "mixed", "", List.of(), "s1", null);
    assertThat(f.nodeIds()).containsExactly(s1Node.id());

    assertThat(store.sessions("a")).containsExactly("s2");
    assertThat(store.turns("a", "s1")).isEmpty();
    assertThat(store.countTurns("a")).isEqualTo(3);
    assertThat(store.segments("a")).extracting(s -> s.segment().session()).containsOnly("s2");
    assertThat(store.segmentedThrough("a", "s1")).isEqualTo(-1);
    assertThat(store.records("a")).extracting(MemoryRecord::id).containsExactly(both.id(), onlyS2.id());
    MemoryRecord pruned = storedRecord("a", both.id()).orElseThrow();
    assertThat(pruned.evidence()).containsExactly(TurnRef.of("s2", 1));
    assertThat(pruned.session()).isEqualTo("s2");
    EvidenceNode mixed = storedNode("a", mixedNode.id()).orElseThrow();
    assertThat(mixed.recordIds()).containsExactly(both.id(), onlyS2.id());
    assertThat(mixed.sessions()).doesNotContain("s1");
    assertThat(mixed.turnRanges()).allSatisfy(r -> assertThat(r.session()).isNotEqualTo("s1"));
    assertThat(store.searchText("a", TextField.TURNS, "lychee", 10)).extracting(ScoredId::id)
        .allSatisfy(id -> assertThat(id).startsWith("episode:s2:")).hasSize(3);
    assertThat(store.searchText("a", TextField.RECORDS, "s1", 10)).isEmpty();

    // what forget reported is exactly what a caller must drop from the vector index
    assertThat(vectors.size("a", VectorIndex.TURNS)).isEqualTo(3);
    assertThat(vectors.size("a", VectorIndex.RECORDS)).isEqualTo(2);
    assertThat(vectors.size("a", VectorIndex.nodes(NodeKind.ENTITY))).isEqualTo(1);
    // namespace b untouched
    assertThat(store.countTurns("b")).isEqualTo(6);
    assertThat(store.records("b")).hasSize(3);
    assertThat(store.forget("a", "never")).isEqualTo(new Forgotten(List.of(), List.of(), List.of()));
  }
}
