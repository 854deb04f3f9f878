package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Records and nodes read by id from an instance's local copy (docs/defaults.md §3.3): one head read
 * per call while nothing changed, and every write of another instance on the same database, a
 * merge, a new row, a pruned session or a forgotten namespace, seen by the next read.
 */
class LocalRowsTest {
  private String schema;
  private CountingDataSource counting;
  private PostgresRecordStore rawA;
  private RecordStore a;
  private RecordStore b;
  /** Reads straight from the database (local rows off): what every read must agree with. */
  private RecordStore truth;

  @BeforeEach
  void open() {
    schema = TestPostgres.freshSchema();
    counting = new CountingDataSource(TestPostgres.get().url());
    rawA = new PostgresRecordStore(PostgresDatabase.open(counting, config(true)));
    a = CheckedRecordStore.of(rawA);
    b = CheckedRecordStore.of(TestPostgres.rawStore(TestPostgres.get().url(), config(true)));
    truth = CheckedRecordStore.of(TestPostgres.rawStore(TestPostgres.get().url(), config(false)));
  }

  private PostgresStoreConfig config(boolean localRows) {
    return PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).localRows(localRows).build();
  }

  @AfterEach
  void close() {
    a.close();
    b.close();
    truth.close();
  }

  @Test
  void aReadWhileNothingChangedIsOneHeadRead() {
    MemoryRecord r1 = record("r1", "s1", "Amy plays the guitar", 0);
    MemoryRecord r2 = record("r2", "s1", "Amy moved to Paris", 1);
    EvidenceNode amy = node(NodeKind.ENTITY, "amy", List.of("r2", "r1"));
    StoreWrites.encode(b, "ns", List.of(r1, r2), List.of(amy));
    assertThat(a.records("ns", List.of("r1"))).containsExactly(r1);
    counting.drain();

    assertThat(a.records("ns", List.of("r2", "nope", "r1", "r2"))).containsExactly(r2, r1);
    assertThat(a.nodes("ns", List.of(amy.id()))).containsExactly(amy);
    assertThat(a.nodeRecordIds("ns", List.of(amy.id(), "nope"))).containsExactly(entry(amy.id(), List.of("r2", "r1")));
    LinkedRecords linked = a.linkedRecords("ns", List.of(amy.id()), 1);

    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).hasSize(4).allMatch(s -> s.contains("FROM row_heads"));
    assertThat(linked.recordIds()).containsExactly(entry(amy.id(), List.of("r2")));
    assertThat(linked.records()).containsExactly(r2);
    assertThat(rawA.localRowReads()).containsExactly(5L, 1L, 0L);
    // a namespace that never held a row reads as empty, with the head read alone
    assertThat(a.records("other", List.of("r1"))).isEmpty();
    assertThat(counting.drain()).hasSize(1);
  }

  /**
   * A read outside a read point after the namespace changed, as the encoder's read of a kind's
   * nodes after its own last commit, is one statement, the head and the rows changed since
   * together (round twenty-three); before, the head was read alone first, then that statement. The
   * same holds for another instance's writes, and a read while nothing changed is still one.
   */
  @Test
  void aReadAfterAWriteCatchesUpInOneStatement() {
    MemoryRecord r1 = record("r1", "s1", "Amy plays the guitar", 0);
    EvidenceNode amy = node(NodeKind.ENTITY, "amy", List.of("r1"));
    StoreWrites.encode(a, "ns", List.of(r1), List.of(amy));
    assertThat(a.nodes("ns", NodeKind.ENTITY)).containsExactly(amy);

    MemoryRecord r2 = record("r2", "s1", "Amy moved to Paris", 1);
    StoreWrites.encode(a, "ns", List.of(r2), List.of(node(NodeKind.ENTITY, "amy", List.of("r2"))));
    counting.drain();
    assertThat(a.nodes("ns", NodeKind.ENTITY)).isEqualTo(truth.nodes("ns", NodeKind.ENTITY))
        .singleElement().extracting(EvidenceNode::recordIds).isEqualTo(List.of("r1", "r2"));
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).singleElement()
        .matches(sql -> sql.startsWith("WITH h AS (SELECT epoch, seq FROM row_heads"));

    StoreWrites.encode(b, "ns", List.of(record("r3", "s2", "Amy sings", 2)),
        List.of(node(NodeKind.ENTITY, "amy", List.of("r3"))));
    assertThat(a.records("ns", List.of("r3", "r1"))).isEqualTo(truth.records("ns", List.of("r3", "r1")));
    assertThat(a.nodeRecordIds("ns", List.of(amy.id()))).containsExactly(entry(amy.id(), List.of("r1", "r2", "r3")));
    assertThat(counting.drain()).as("the catch-up, then a read with nothing changed").hasSize(2);
    assertThat(rawA.localRowReads()).as("head reads, full loads, catch-ups").containsExactly(4L, 1L, 2L);
  }

  @Test
  void anotherInstancesWritesAreSeenByTheNextRead() {
    MemoryRecord r1 = record("r1", "s1", "Amy plays the guitar", 0);
    MemoryRecord r2 = record("r2", "s2", "Amy moved to Paris", 1);
    EvidenceNode amy = node(NodeKind.ENTITY, "amy", List.of("r1"));
    StoreWrites.encode(b, "ns", List.of(r1, r2), List.of(amy));
    List<String> ids = List.of("r1", "r2", "r3");
    assertThat(a.records("ns", ids)).containsExactly(r1, r2);
    assertThat(a.nodeRecordIds("ns", List.of(amy.id()))).containsExactly(entry(amy.id(), List.of("r1")));

    // the other instance merges into r1 and amy (new evidence, new link) and adds r3
    MemoryRecord r1Again = record("r1", "s1", "Amy plays the guitar", 5);
    MemoryRecord r3 = record("r3", "s1", "Amy sings", 6);
    StoreWrites.encode(b, "ns", List.of(r1Again, r3), List.of(node(NodeKind.ENTITY, "amy", List.of("r3"))));
    List<MemoryRecord> merged = truth.records("ns", ids);
    assertThat(merged.get(0).evidence()).hasSize(2);
    assertThat(a.records("ns", ids)).isEqualTo(merged);
    assertThat(a.nodes("ns", List.of(amy.id()))).isEqualTo(truth.nodes("ns", List.of(amy.id())));
    assertThat(a.linkedRecords("ns", List.of(amy.id()), 5)).isEqualTo(truth.linkedRecords("ns", List.of(amy.id()), 5));
    assertThat(rawA.localRowReads()[1]).as("full loads").isEqualTo(1);
    assertThat(rawA.localRowReads()[2]).as("catch-ups").isEqualTo(1);

    // pruning a session deletes r2 (a new epoch) and rewrites what linked to it
    b.forget("ns", "s2");
    assertThat(a.records("ns", ids)).isEqualTo(truth.records("ns", ids)).extracting(MemoryRecord::id)
        .containsExactly("r1", "r3");
    assertThat(rawA.localRowReads()[1]).as("full loads").isEqualTo(2);

    // a forgotten namespace is empty for every instance
    b.forget("ns");
    assertThat(a.records("ns", ids)).isEmpty();
    assertThat(a.nodes("ns", List.of(amy.id()))).isEmpty();
    assertThat(a.linkedRecords("ns", List.of(amy.id()), 5)).isEqualTo(LinkedRecords.NONE);
  }

  @Test
  void atMostTheBoundsNamespacesAreHeldAndAnEvictedOneReloadsWithTheWritesItMissed() {
    PostgresRecordStore rawBounded = TestPostgres.rawStore(TestPostgres.get().url(),
        PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).localRowsMaxNamespaces(2).build());
    try (RecordStore bounded = CheckedRecordStore.of(rawBounded)) {
      for (String ns : List.of("n1", "n2", "n3")) {
        StoreWrites.records(b, ns, List.of(record(ns, "r1", "s1", "Amy plays the guitar in " + ns, 0)));
      }
      List<String> ids = List.of("r1", "r2");
      for (String ns : List.of("n1", "n2")) {
        assertThat(bounded.records(ns, ids)).isEqualTo(truth.records(ns, ids));
      }
      assertThat(rawBounded.localRowsHeld()).as("held, evicted").containsExactly(2L, 0L);

      // a third namespace drops the least recently read one (n1)
      assertThat(bounded.records("n3", ids)).isEqualTo(truth.records("n3", ids));
      assertThat(rawBounded.localRowsHeld()).as("held, evicted").containsExactly(2L, 1L);
      assertThat(rawBounded.localRowReads()[1]).as("full loads").isEqualTo(3);

      // n2 read again is still held (no load); n3 is now the least recently read
      assertThat(bounded.records("n2", ids)).isEqualTo(truth.records("n2", ids));
      assertThat(rawBounded.localRowReads()[1]).as("full loads").isEqualTo(3);

      // while n1 is not held, another instance merges into its r1 and adds r2: the reload has both
      StoreWrites.records(b, "n1", List.of(record("n1", "r1", "s1", "Amy plays the guitar in n1", 4),
          record("n1", "r2", "s1", "Amy sings", 5)));
      List<MemoryRecord> n1 = truth.records("n1", ids);
      assertThat(n1).hasSize(2);
      assertThat(n1.get(0).evidence()).hasSize(2);
      assertThat(bounded.records("n1", ids)).isEqualTo(n1);
      assertThat(rawBounded.localRowReads()[1]).as("full loads").isEqualTo(4);
      assertThat(rawBounded.localRowsHeld()).as("held, evicted").containsExactly(2L, 2L);
      // n3 was dropped for n1: reading it loads it afresh
      assertThat(bounded.records("n3", ids)).isEqualTo(truth.records("n3", ids));
      assertThat(rawBounded.localRowReads()[1]).as("full loads").isEqualTo(5);
      assertThat(rawBounded.localRowsHeld()).as("held, evicted").containsExactly(2L, 3L);

      // the turn copies keep the same bound: a dropped namespace reloads with the turns it missed
      List<TurnRef> refs = List.of(TurnRef.of("s1", 0), TurnRef.of("s1", 1));
      for (String ns : List.of("n1", "n2", "n3")) {
        b.appendTurns(ns, "s1", List.of(turn(ns, "s1", 0, "Amy: hello from " + ns)));
        assertThat(bounded.turns(ns, refs)).isEqualTo(truth.turns(ns, refs)).hasSize(1);
      }
      assertThat(rawBounded.turnCopiesHeld()).as("turn copies held, evicted").containsExactly(2L, 1L);
      b.appendTurns("n1", "s1", List.of(turn("n1", "s1", 1, "Bo: hi")));
      assertThat(bounded.turns("n1", refs)).isEqualTo(truth.turns("n1", refs)).hasSize(2);
      assertThat(rawBounded.turnPostingLoads()).as("turn full loads").isEqualTo(4);
      assertThat(rawBounded.turnCopiesHeld()).as("turn copies held, evicted").containsExactly(2L, 2L);
    }
  }

  @Test
  void turnsByRefAndWindowsComeFromTheCopyAndSeeTheOtherInstancesAppendsAndForgets() {
    b.appendTurns("ns", "s1", List.of(turn("s1", 0, "Amy: I play the guitar"), turn("s1", 1, "Bo: since when?")));
    b.appendTurns("ns", "s2", List.of(turn("s2", 0, "Amy: I moved to Paris")));
    List<TurnRef> refs = List.of(TurnRef.of("s2", 0), TurnRef.of("s1", 5), TurnRef.of("s1", 1), TurnRef.of("s1", 0));
    assertThat(a.turns("ns", refs)).isEqualTo(truth.turns("ns", refs)).hasSize(3);
    counting.drain();

    // while nothing changed: the turn head alone, for refs and for a window
    assertThat(a.turns("ns", refs)).isEqualTo(truth.turns("ns", refs));
    assertThat(a.turns("ns", "s1", 0, 1)).isEqualTo(truth.turns("ns", "s1", 0, 1)).hasSize(2);
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).hasSize(2).allMatch(s -> s.contains("FROM turn_heads"));

    // the other instance appends: the next read catches up with the new turns only
    b.appendTurns("ns", "s1", List.of(turn("s1", 2, "Amy: since May"), turn("s1", 3, "Bo: nice")));
    b.appendTurns("ns", "s3", List.of(turn("s3", 0, "Amy: hello")));
    List<TurnRef> more = List.of(TurnRef.of("s1", 3), TurnRef.of("s3", 0), TurnRef.of("s1", 2));
    assertThat(a.turns("ns", more)).isEqualTo(truth.turns("ns", more)).hasSize(3);
    assertThat(a.turns("ns", "s1", 1, 9)).isEqualTo(truth.turns("ns", "s1", 1, 9)).hasSize(3);
    assertThat(a.turns("ns", "s1")).isEqualTo(truth.turns("ns", "s1")).hasSize(4);
    assertThat(rawA.turnPostingLoads()).as("full loads").isEqualTo(1);
    assertThat(rawA.turnPostingReplays()).as("catch-ups").isEqualTo(1);

    // a forgotten session (a new epoch) and a forgotten namespace
    b.forget("ns", "s1");
    assertThat(a.turns("ns", refs)).isEqualTo(truth.turns("ns", refs)).hasSize(1);
    assertThat(a.turns("ns", "s1", 0, 9)).isEmpty();
    assertThat(rawA.turnPostingLoads()).as("full loads").isEqualTo(2);
    b.forget("ns");
    assertThat(a.turns("ns", refs)).isEmpty();
    assertThat(a.turns("ns", "s2")).isEmpty();
  }

  /**
   * A listing of one kind (the temporal channel's, round nineteen) comes from the copy, in the
   * database's order (key, then id, bytes), and sees another instance's new and merged nodes.
   */
  @Test
  void nodesOfOneKindComeFromTheCopyInTheDatabasesOrder() {
    StoreWrites.encode(b, "ns", List.of(), List.of(node(NodeKind.TEMPORAL, "month:2023-05", List.of("r1")),
        node(NodeKind.TEMPORAL, "day:2023-05-07", List.of("r1")), node(NodeKind.ENTITY, "\u00c9mile", List.of("r2")),
        node(NodeKind.ENTITY, "zed", List.of("r1")), node(NodeKind.ENTITY, "Zed", List.of("r1"))));
    assertThat(a.nodes("ns", NodeKind.ENTITY)).isEqualTo(truth.nodes("ns", NodeKind.ENTITY))
        .extracting(EvidenceNode::key).containsExactly("Zed", "zed", "\u00c9mile");
    assertThat(a.nodes("ns", NodeKind.TEMPORAL)).isEqualTo(truth.nodes("ns", NodeKind.TEMPORAL)).hasSize(2);
    assertThat(a.nodes("ns", NodeKind.TAG)).isEmpty();
    counting.drain();
    assertThat(a.readPoint("ns").call(() -> a.nodes("ns", NodeKind.TEMPORAL))).hasSize(2);
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).singleElement().satisfies(sql -> assertThat(sql).contains("row_heads"));

    // the other instance adds a day and merges a record into the month
    StoreWrites.encode(b, "ns", List.of(), List.of(node(NodeKind.TEMPORAL, "day:2023-05-01", List.of("r3")),
        node(NodeKind.TEMPORAL, "month:2023-05", List.of("r3"))));
    assertThat(a.nodes("ns", NodeKind.TEMPORAL)).isEqualTo(truth.nodes("ns", NodeKind.TEMPORAL))
        .extracting(EvidenceNode::key).containsExactly("day:2023-05-01", "day:2023-05-07", "month:2023-05");
    assertThat(a.nodes("ns", NodeKind.TEMPORAL).get(2).recordIds()).containsExactly("r1", "r3");
    b.forget("ns");
    assertThat(a.nodes("ns", NodeKind.TEMPORAL)).isEmpty();
  }

  @Test
  void theNamespaceBoundIsAtLeastOne() {
    assertThatThrownBy(() -> PostgresStoreConfig.builder().localRowsMaxNamespaces(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("localRowsMaxNamespaces must be >= 1 (namespaces whose records and nodes one instance"
            + " keeps in memory; set localRows(false) to keep none): 0");
    assertThat(PostgresStoreConfig.defaults().localRowsMaxNamespaces()).isEqualTo(32);
  }

  @Test
  void withLocalRowsOffEveryReadGoesToTheDatabase() {
    MemoryRecord r1 = record("r1", "s1", "Amy plays the guitar", 0);
    StoreWrites.records(b, "ns", List.of(r1));
    assertThat(truth.records("ns", List.of("r1"))).containsExactly(r1);
    assertThat(((PostgresRecordStore) ((CheckedRecordStore) truth).storage()).localRowReads()).containsExactly(0L, 0L, 0L);
  }

  private static MemoryRecord record(String id, String session, String text, int turn) {
    return record("ns", id, session, text, turn);
  }

  private static MemoryRecord record(String ns, String id, String session, String text, int turn) {
    return new MemoryRecord(id, ns, MemoryType.FACT, text, List.of("Amy"), List.of(), TemporalScope.NONE,
        List.of(TurnRef.of(session, turn)), session, session + ":0-3", SourceRole.USER,
        LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  private static RawTurn turn(String session, int index, String text) {
    return turn("ns", session, index, text);
  }

  private static RawTurn turn(String ns, String session, int index, String text) {
    return new RawTurn(ns, TurnRef.of(session, index), Role.USER, text.substring(0, text.indexOf(':')),
        text.substring(text.indexOf(':') + 2), LocalDateTime.of(2023, 5, 7 + index, 13, 0));
  }

  private static EvidenceNode node(NodeKind kind, String key, List<String> recordIds) {
    return new EvidenceNode(null, "ns", kind, key, key, key, recordIds, List.of("s1"), List.of(key), List.of(),
        null, List.of(new TurnRange("s1", 0, 3)));
  }
}
