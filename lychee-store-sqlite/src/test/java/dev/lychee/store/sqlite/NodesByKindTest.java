package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace's nodes of one kind ({@code nodes(namespace, TEMPORAL)}, the temporal channel's list)
 * come from the copy kept in memory (round twenty), exactly as the table holds them: merged nodes,
 * the table's order by key then id, nodes written, merged, pruned and deleted by another process
 * (a second database over the same file) seen by the next read. A commit that wrote no node of the
 * namespace costs a read of its change counts, not of its nodes; and the copies are bounded.
 */
class NodesByKindTest {
  private static final int DAYS = 6;

  @TempDir Path dir;
  private Path file;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private SqliteDatabase otherDb;
  private SqliteRecordStore other;
  /** Statements that read or write node rows (not the change counts). */
  private AtomicInteger nodeRowStatements;

  @BeforeEach
  void open() {
    file = dir.resolve("k.db");
    db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    otherDb = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    other = new SqliteRecordStore(otherDb);
    nodeRowStatements = TableStatements.count(db, "nodes");
    for (String ns : List.of("a", "b")) {
      for (int s = 0; s < 3; s++) {
        write(store, ns, "s" + s, DAYS);
      }
    }
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  /**
   * One session's records with temporal nodes of {@code days} days (the same days in every session,
   * so they merge), an entity node, and a temporal node of the session alone.
   */
  private static void write(SqliteRecordStore into, String ns, String session, int days) {
    into.appendTurns(ns, session, List.of(turn(ns, session, 0, "jam")));
    List<MemoryRecord> records = new ArrayList<>();
    List<EvidenceNode> nodes = new ArrayList<>();
    for (int d = 0; d < days; d++) {
      MemoryRecord r = record(ns, "Fact of day " + d + " in " + session, TurnRef.of(session, 0));
      records.add(r);
      LocalDate day = LocalDate.of(2023, 5, 1 + d);
      nodes.add(temporal(ns, "day:" + day, r.id(), session, DateRange.day(day)));
    }
    nodes.add(temporal(ns, "session:" + session, records.get(0).id(), session, null));
    nodes.add(new EvidenceNode(null, ns, NodeKind.ENTITY, "ann", "Ann", "Ann", List.of(records.get(0).id()),
        List.of(session), List.of("ann"), List.of(), null, List.of(new TurnRange(session, 0, 0))));
    StoreWrites.encode(into, ns, records, nodes);
  }

  private static EvidenceNode temporal(String ns, String key, String recordId, String session, DateRange span) {
    return new EvidenceNode(null, ns, NodeKind.TEMPORAL, key, key, key, List.of(recordId), List.of(session),
        List.of(), List.of(), span, List.of(new TurnRange(session, 0, 0)));
  }

  /** The nodes as the table holds them now, read with SQL on the other database. */
  private List<EvidenceNode> fromTheTable(String ns, NodeKind kind) {
    return new NodesByKind(otherDb, 0).nodes(ns, kind);
  }

  @Test
  void aReadNamespacesNodesComeFromMemoryAsTheTableHasThem() {
    List<EvidenceNode> a = store.nodes("a", NodeKind.TEMPORAL);
    assertThat(a).hasSize(DAYS + 3).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL));
    assertThat(a.get(0).recordIds()).as("merged over the sessions").hasSize(3);
    assertThat(store.nodes("a", NodeKind.ENTITY)).isEqualTo(fromTheTable("a", NodeKind.ENTITY));

    nodeRowStatements.set(0);
    for (int i = 0; i < 5; i++) {
      assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEqualTo(a);
    }
    assertThat(nodeRowStatements.get()).as("statements on node rows once the copy is read").isZero();
  }

  @Test
  void aCommitThatWroteNoNodeOfTheNamespaceReadsNoNodeRow() {
    List<EvidenceNode> a = store.nodes("a", NodeKind.TEMPORAL);
    // commits that move the file's version: a turn here, a namespace's nodes in another process
    store.appendTurns("a", "s9", List.of(turn("a", "s9", 0, "more jam")));
    write(other, "b", "s7", DAYS);
    nodeRowStatements.set(0);
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEqualTo(a).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL));
    // the read cache was emptied by those commits; the copy is only checked against the change counts
    assertThat(nodeRowStatements.get()).isZero();
  }

  @Test
  void writesOfThisAndAnotherProcessShowInTheNextRead() {
    store.nodes("a", NodeKind.TEMPORAL);

    // a merge here into a stored day and a new day
    write(store, "a", "s3", DAYS + 1);
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL))
        .anySatisfy(n -> assertThat(n.key()).isEqualTo("day:2023-05-" + String.format("%02d", DAYS + 1)));

    // another process writes a session: new nodes and merges into stored ones
    write(other, "a", "s4", DAYS);
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL))
        .anySatisfy(n -> assertThat(n.key()).isEqualTo("session:s4"));

    // another process forgets a session: its own node deleted, the merged ones rewritten without it
    int before = store.nodes("a", NodeKind.TEMPORAL).size();
    other.forget("a", "s0");
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL))
        .hasSize(before - 1).noneSatisfy(n -> assertThat(n.key()).isEqualTo("session:s0"));

    // and the whole namespace
    other.forget("a");
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEmpty();
    write(other, "a", "s5", 2);
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).hasSize(3).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL));
  }

  @Test
  void aNodeRewrittenUnderItsIdAsAnotherKindLeavesTheCopy() {
    List<EvidenceNode> a = store.nodes("a", NodeKind.TEMPORAL);
    EvidenceNode first = a.get(0);
    EvidenceNode asEntity = new EvidenceNode(first.id(), "a", NodeKind.ENTITY, first.key(), "x", "x",
        first.recordIds(), first.sessions(), List.of(), List.of(), null, first.turnRanges());
    StoreWrites.nodes(other, "a", List.of(asEntity));
    assertThat(store.nodes("a", NodeKind.TEMPORAL)).isEqualTo(fromTheTable("a", NodeKind.TEMPORAL));
    assertThat(store.nodes("a", NodeKind.ENTITY)).isEqualTo(fromTheTable("a", NodeKind.ENTITY));
  }

  @Test
  void keysAreOrderedAsSqliteOrdersText() {
    // U+FF21 (one UTF-16 unit) sorts after U+1F600 (a surrogate pair) in String order, before it in
    // SQLite's BINARY order (UTF-8 bytes, i.e. code points)
    MemoryRecord r = record("c", "A fact", TurnRef.of("s", 0));
    store.appendTurns("c", "s", List.of(turn("c", "s", 0, "jam")));
    StoreWrites.encode(store, "c", List.of(r), List.of(temporal("c", "k\uFF21", r.id(), "s", null),
        temporal("c", "k\uD83D\uDE00", r.id(), "s", null), temporal("c", "k", r.id(), "s", null)));
    assertThat(store.nodes("c", NodeKind.TEMPORAL)).extracting(EvidenceNode::key)
        .containsExactly("k", "k\uFF21", "k\uD83D\uDE00")
        .isEqualTo(fromTheTable("c", NodeKind.TEMPORAL).stream().map(EvidenceNode::key).toList());
  }

  @Test
  void theCopiesHoldAtMostTheBoundDroppingTheLeastRecentlyRead() {
    int perNamespace = DAYS + 3;
    NodesByKind kinds = new NodesByKind(db, 2 * perNamespace + 1);
    for (String ns : List.of("c", "d")) {
      for (int s = 0; s < 3; s++) {
        write(store, ns, "s" + s, DAYS);
      }
    }
    for (String ns : List.of("a", "b", "c")) {
      assertThat(kinds.nodes(ns, NodeKind.TEMPORAL)).isEqualTo(fromTheTable(ns, NodeKind.TEMPORAL));
    }
    assertThat(kinds.heldNamespaces()).containsExactly("b", "c");
    assertThat(kinds.held()).isEqualTo(2L * perNamespace);

    kinds.nodes("b", NodeKind.TEMPORAL); // b is now the most recently read
    kinds.nodes("d", NodeKind.TEMPORAL);
    assertThat(kinds.heldNamespaces()).containsExactly("b", "d");

    // a copy larger than the bound alone is not kept, and still answers as the table
    NodesByKind small = new NodesByKind(db, perNamespace - 1);
    small.nodes("a", NodeKind.TEMPORAL);
    assertThat(small.nodes("b", NodeKind.TEMPORAL)).isEqualTo(fromTheTable("b", NodeKind.TEMPORAL));
    assertThat(small.heldNamespaces()).isEmpty();
    assertThat(small.held()).isZero();
  }
}
