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
 * Conformance suite of {@link dev.lychee.api.spi.RecordStore}: what spans every concern: namespace isolation, reopening, concurrent writers, argument checks and the closed state.
 * {@link BaseRecordStoreTestCase} runs it against every backend; random data comes from fixed
 * seeds so that a failure reproduces.
 */
public abstract class BaseStoreContractTestCase extends StoreCase {

  @Test
  void randomisedNamespaceIsolation() {
    Random rnd = new Random(20240917L);
    int namespaces = 10;
    Map<String, Set<String>> turnIds = new HashMap<>();
    Map<String, Set<String>> recordIds = new HashMap<>();
    Map<String, Set<String>> nodeIds = new HashMap<>();
    VectorIndex vectors = companionIndex();
    String shared = "Everyone shares this exact sentence.";
    for (int n = 0; n < namespaces; n++) {
      String ns = "tenant-" + n;
      String marker = "mark" + n + "x";
      Set<String> tIds = new HashSet<>();
      Set<String> rIds = new HashSet<>();
      Set<String> nIds = new HashSet<>();
      for (String session : List.of("s1", "s2", "s3")) {
        int count = 1 + rnd.nextInt(15);
        List<RawTurn> turns = StoreFixtures.turns(ns, session, 0, count, rnd, marker);
        store.appendTurns(ns, session, turns);
        turns.forEach(t -> tIds.add(t.id()));
        Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
        store.putSegment(seg, SegmentState.PENDING);
        List<MemoryRecord> recs = new ArrayList<>();
        for (int r = 0; r < 1 + rnd.nextInt(5); r++) {
          recs.add(record(ns, StoreFixtures.sentence(rnd, 5) + " " + marker + " " + session + r + ".",
              MemoryType.values()[rnd.nextInt(MemoryType.values().length)],
              day(LocalDate.of(2023, 1, 1).plusDays(rnd.nextInt(60))), List.of("E" + rnd.nextInt(4)),
              List.of("tag" + rnd.nextInt(4)), TurnRef.of(session, rnd.nextInt(count))));
        }
        recs.add(record(ns, shared, TurnRef.of(session, 0)));
        List<EvidenceNode> nodes = new ArrayList<>();
        for (MemoryRecord r : recs) {
          nodes.add(node(ns, NodeKind.ENTITY, r.entities().isEmpty() ? "none" : r.entities().get(0).toLowerCase(),
              "Entity", List.of(r.id()), session, null));
        }
        store.commitEncoding(ns, seg.id(), recs, nodes);
        recs.forEach(r -> rIds.add(r.id()));
        nodes.forEach(x -> nIds.add(x.id()));
      }
      turnIds.put(ns, tIds);
      recordIds.put(ns, rIds);
      nodeIds.put(ns, nIds);
      Map<String, float[]> vs = new LinkedHashMap<>();
      tIds.forEach(id -> vs.put(id, unit(rnd, 8)));
      vectors.upsert(ns, VectorIndex.TURNS, vs);
    }
    reopenIfSupported();
    int victim = 5;
    int victimSession = 7;
    Forgotten whole = store.forget("tenant-" + victim);
    vectors.remove("tenant-" + victim, VectorIndex.TURNS, whole.turnIds());
    assertThat(Set.copyOf(whole.turnIds())).isEqualTo(turnIds.get("tenant-" + victim));
    Forgotten part = store.forget("tenant-" + victimSession, "s2");
    vectors.remove("tenant-" + victimSession, VectorIndex.TURNS, part.turnIds());
    turnIds.put("tenant-" + victim, Set.of());
    recordIds.put("tenant-" + victim, Set.of());
    nodeIds.put("tenant-" + victim, Set.of());
    turnIds.get("tenant-" + victimSession).removeIf(id -> id.startsWith("episode:s2:"));

    for (int n = 0; n < namespaces; n++) {
      String ns = "tenant-" + n;
      Set<String> tIds = turnIds.get(ns);
      assertThat(store.countTurns(ns)).isEqualTo(tIds.size());
      Set<String> listed = store.sessions(ns).stream()
          .flatMap(s -> store.turns(ns, s).stream()).map(RawTurn::id).collect(Collectors.toSet());
      assertThat(listed).isEqualTo(tIds);
      assertThat(store.turns(ns, "s1")).allSatisfy(t -> assertThat(t.namespace()).isEqualTo(ns));
      assertThat(store.records(ns)).allSatisfy(r -> {
        assertThat(r.namespace()).isEqualTo(ns);
        assertThat(recordIds.get(ns)).contains(r.id());
      });
      if (n != victim && n != victimSession) {
        assertThat(store.records(ns)).hasSize(recordIds.get(ns).size());
        MemoryRecord sharedRec = storedRecord(ns, MemoryRecord.idFor(shared)).orElseThrow();
        assertThat(sharedRec.namespace()).isEqualTo(ns);
        assertThat(sharedRec.evidence()).hasSize(3);
      }
      for (NodeKind k : NodeKind.values()) {
        assertThat(store.nodes(ns, k)).allSatisfy(x -> {
          assertThat(x.namespace()).isEqualTo(ns);
          assertThat(nodeIds.get(ns)).contains(x.id());
          assertThat(recordIds.get(ns)).containsAll(x.recordIds());
        });
      }
      assertThat(store.segments(ns)).allSatisfy(s -> assertThat(s.segment().namespace()).isEqualTo(ns));
      for (int other = 0; other < namespaces; other++) {
        String marker = "mark" + other + "x";
        List<ScoredId> turnsHits = store.searchText(ns, TextField.TURNS, marker + " apple river", 50);
        assertThat(turnsHits).allSatisfy(h -> assertThat(tIds).contains(h.id()));
        List<ScoredId> recordHits = store.searchText(ns, TextField.RECORDS, marker, 50);
        if (other != n || n == victim) {
          assertThat(recordHits).isEmpty();
        } else {
          assertThat(recordHits).isNotEmpty();
        }
        if (other != n) {
          assertThat(store.searchText(ns, TextField.TURNS, marker, 50)).isEmpty();
        }
      }
      List<ScoredId> nearest = vectors.search(ns, VectorIndex.TURNS, unit(rnd, 8), 1000, null);
      assertThat(nearest).extracting(ScoredId::id).containsExactlyInAnyOrderElementsOf(tIds);
    }
    assertThat(store.namespaces()).doesNotContain("tenant-" + victim).hasSize(namespaces - 1);
  }

  @Test
  void reopenKeepsEverything() {
    assumeTrue(supportsReopen(), "store is not durable");
    fillSmall("a");
    List<RawTurn> turns = store.turns("a", "s1");
    List<MemoryRecord> records = store.records("a");
    List<EvidenceNode> nodes = store.nodes("a", NodeKind.ENTITY);
    List<StoredSegment> segments = store.segments("a");
    List<ScoredId> hits = store.searchText("a", TextField.TURNS, "lychee two", 10);
    reopen();
    assertThat(store.turns("a", "s1")).isEqualTo(turns);
    assertThat(store.records("a")).isEqualTo(records);
    assertThat(store.nodes("a", NodeKind.ENTITY)).isEqualTo(nodes);
    assertThat(store.segments("a")).isEqualTo(segments);
    assertThat(store.searchText("a", TextField.TURNS, "lychee two", 10)).extracting(ScoredId::id)
        .isEqualTo(hits.stream().map(ScoredId::id).toList());
    assertThat(store.nextTurnIndex("a", "s2")).isEqualTo(3);
    // and keeps working
    assertThat(store.appendTurns("a", "s1", List.of(turn("a", "s1", 2, "dup"), turn("a", "s1", 3, "new"))))
        .extracting(RawTurn::index).containsExactly(3);
  }

  @Test
  void concurrentWritersAndReadersEndWithExactCounts() throws Exception {
    int writers = 8;
    int batches = 12;
    int perBatch = 4;
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String session = "w" + w;
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int b = 0; b < batches; b++) {
            List<RawTurn> batch = new ArrayList<>();
            for (int i = 0; i < perBatch; i++) {
              int idx = b * perBatch + i;
              batch.add(turn("ns", session, idx, "writer " + session + " turn " + idx + " lychee"));
            }
            store.appendTurns("ns", session, batch);
            // re-sending the previous batch must not duplicate anything
            store.appendTurns("ns", session, batch.subList(0, 2));
            MemoryRecord r = record("ns", "Record " + session + " " + b + " lychee.", TurnRef.of(session, b * perBatch));
            MemoryRecord shared = record("ns", "Shared lychee record.", TurnRef.of(session, b * perBatch));
            Segment seg = segment(batch, CloseReason.TARGET_LENGTH);
            store.putSegment(seg, SegmentState.PENDING);
            store.commitEncoding("ns", seg.id(), List.of(r, shared), List.of(
                node("ns", NodeKind.TAG, "lychee", "Tag: lychee", List.of(r.id()), session, null)));
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    for (int rd = 0; rd < 3; rd++) {
      threads.add(new Thread(() -> {
        try {
          start.await();
          while (!done.get()) {
            long c = store.countTurns("ns");
            assertThat(c).isBetween(0L, (long) writers * batches * perBatch);
            store.searchText("ns", TextField.TURNS, "lychee writer", 5);
            store.searchText("ns", TextField.RECORDS, "lychee", 5);
            for (StoredSegment s : store.segments("ns")) {
              assertThat(s.state()).isIn(SegmentState.PENDING, SegmentState.ENCODED);
            }
            store.records("ns");
            store.nodes("ns", NodeKind.TAG);
            // a pause between rounds: spinning readers would starve the writers they are meant to
            // overlap on a small machine, and the test would time the scheduler, not the store
            Thread.sleep(1);
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    threads.forEach(Thread::start);
    start.countDown();
    for (int i = 0; i < writers; i++) {
      threads.get(i).join(TimeUnit.MINUTES.toMillis(2));
    }
    done.set(true);
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(1));
    }
    assertThat(errors).isEmpty();
    assertThat(store.countTurns("ns")).isEqualTo((long) writers * batches * perBatch);
    assertThat(store.sessions("ns")).hasSize(writers);
    for (int w = 0; w < writers; w++) {
      assertThat(store.turns("ns", "w" + w)).hasSize(batches * perBatch);
      assertThat(store.nextTurnIndex("ns", "w" + w)).isEqualTo(batches * perBatch);
    }
    assertThat(store.segments("ns")).hasSize(writers * batches)
        .allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
    assertThat(store.records("ns")).hasSize(writers * batches + 1);
    assertThat(storedRecord("ns", MemoryRecord.idFor("Shared lychee record.")).orElseThrow().evidence())
        .hasSize(writers * batches);
    assertThat(store.nodes("ns", NodeKind.TAG)).singleElement()
        .satisfies(n -> assertThat(n.recordIds()).hasSize(writers * batches));
    assertThat(store.searchText("ns", TextField.TURNS, "lychee", 10_000)).hasSize(writers * batches * perBatch);
  }

  @Test
  void badArgumentsGiveClearExceptions() {
    RawTurn t = turn("ns", "s", 0, "x");
    assertThatThrownBy(() -> store.appendTurns("", "s", List.of(t))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns(" ", "s", List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns("ns", "  ", List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns("ns", "other", List.of(t)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session");
    assertThatThrownBy(() -> store.appendTurns("elsewhere", "s", List.of(t)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
    assertThatThrownBy(() -> store.turns("", "s")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.turns("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.sessions(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.countTurns("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.records("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.forget("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.forget("ns", " ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.nextTurnIndex("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.segmentedThrough("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.searchText("", TextField.TURNS, "x", 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.searchText("ns", TextField.TURNS, "x", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.searchText("ns", TextField.RECORDS, "x", -1)).isInstanceOf(IllegalArgumentException.class);
    MemoryRecord foreign = record("elsewhere", "Foreign.", TurnRef.of("s", 0));
    assertThatThrownBy(() -> store.commitEncoding("ns", "s:0-0", List.of(foreign), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
    assertThat(store.records("ns")).isEmpty();
    assertThat(store.records("elsewhere")).isEmpty();
    EvidenceNode foreignNode = node("elsewhere", NodeKind.TAG, "x", "", List.of("r"), "s", null);
    assertThatThrownBy(() -> store.commitEncoding("ns", "s:0-0", List.of(), List.of(foreignNode)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
    assertThatThrownBy(() -> store.setSegmentState("ns", " ", SegmentState.ENCODED, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.records("ns", java.util.Arrays.asList("a", null)))
        .isInstanceOf(NullPointerException.class);
    // unknown namespaces are empty, not errors
    assertThat(store.records("ghost")).isEmpty();
    assertThat(store.segments("ghost")).isEmpty();
    assertThat(store.nodes("ghost", NodeKind.TAG)).isEmpty();
    assertThat(store.countTurns("ghost")).isZero();
    assertThat(store.namespaces()).isEmpty();
  }

  @Test
  void closedStoreRefusesCalls() {
    RecordStore s = newStore();
    s.close();
    assertThatThrownBy(() -> s.countTurns("ns")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "x"))))
        .isInstanceOf(IllegalStateException.class);
  }
}
