package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace's node links ({@code nodeRecordIds}) are read from the links kept in memory, without
 * a statement on the node tables, while nothing was committed since they were caught up, exactly as
 * the table holds them: merged nodes with every record they link, the order of the ids asked for,
 * repeats and unknown ids dropped. Links behind the file (nodes merged here, written or pruned by
 * another process since the last read) are not used. The expected answers are the whole nodes a
 * second store over the same file reads with SQL.
 */
class NodeLinkCopyTest {
  private static final int SESSIONS = 3;
  private static final int KEYS = 12;

  @TempDir Path dir;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private SqliteRecordStore plain;
  private AtomicInteger nodeStatements;

  @BeforeEach
  void open() {
    Path file = dir.resolve("n.db");
    db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    plain = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()));
    nodeStatements = TableStatements.count(db, "nodes", "node_changes");
    for (String ns : List.of("a", "b")) {
      for (int s = 0; s < SESSIONS; s++) {
        write(store, ns, "s" + s);
      }
    }
  }

  /**
   * One session's records and nodes: the same keys in every session, so their nodes merge and link
   * the records of several sessions, and one node of the session alone.
   */
  private static void write(SqliteRecordStore into, String ns, String session) {
    into.appendTurns(ns, session, List.of(turn(ns, session, 0, "jam")));
    List<MemoryRecord> records = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      records.add(record(ns, "Fact " + i + " of " + session, TurnRef.of(session, 0)));
    }
    List<EvidenceNode> nodes = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      List<String> linked = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        if ((i + k) % 3 == 0) {
          linked.add(records.get(i).id());
        }
      }
      nodes.add(node(ns, "key" + k, linked, session));
    }
    nodes.add(node(ns, "only-" + session, List.of(records.get(0).id()), session));
    StoreWrites.encode(into, ns, records, nodes);
  }

  private static EvidenceNode node(String ns, String key, List<String> recordIds, String session) {
    return new EvidenceNode(null, ns, NodeKind.ENTITY, key, key, key, recordIds, List.of(session),
        List.of(key), List.of(), null, List.of(new TurnRange(session, 0, 0)));
  }

  @AfterEach
  void close() {
    store.close();
    plain.close();
  }

  private List<String> ids(String ns) {
    return plain.nodes(ns, NodeKind.ENTITY).stream().map(EvidenceNode::id).toList();
  }

  /** The links as the table holds them, from whole nodes read with SQL, in the order asked for. */
  private List<Map.Entry<String, List<String>>> fromTheTable(String ns, List<String> ids) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    plain.nodes(ns, ids).forEach(n -> out.put(n.id(), n.recordIds()));
    return List.copyOf(out.entrySet());
  }

  /** Entries in their order: maps compare equal whatever their order. */
  private List<Map.Entry<String, List<String>>> links(String ns, List<String> ids) {
    return List.copyOf(store.nodeRecordIds(ns, ids).entrySet());
  }

  /** Random reads by id, each checked against the table; returns the statements they ran on the node tables. */
  private int readsMatchTheTable(String ns, long seed) {
    Random rnd = new Random(seed);
    List<String> known = new ArrayList<>(ids(ns));
    known.add("no-such-node");
    nodeStatements.set(0);
    for (int round = 0; round < 60; round++) {
      List<String> ids = new ArrayList<>();
      int n = 1 + rnd.nextInt(10);
      for (int i = 0; i < n; i++) {
        ids.add(known.get(rnd.nextInt(known.size()))); // repeats likely
      }
      assertThat(links(ns, ids)).as("%s", ids).isEqualTo(fromTheTable(ns, ids));
    }
    return nodeStatements.get();
  }

  @Test
  void aReadNamespacesLinksComeFromMemoryAsTheTableHasThem() {
    assertThat(ids("a")).hasSize(KEYS + SESSIONS);
    // the merged nodes link records of every session
    assertThat(store.nodeRecordIds("a", List.of(EvidenceNode.idFor(NodeKind.ENTITY, "key0"))).values())
        .singleElement().satisfies(r -> assertThat(r).hasSize(4 * SESSIONS));
    assertThat(readsMatchTheTable("a", 1)).as("statements on the node tables once the links are read").isZero();
    assertThat(readsMatchTheTable("b", 2)).as("a namespace's first read catches its links up").isPositive();
    assertThat(readsMatchTheTable("b", 3)).isZero();
  }

  @Test
  void linksBehindTheFileAreNotUsed() {
    readsMatchTheTable("a", 1);
    String key0 = EvidenceNode.idFor(NodeKind.ENTITY, "key0");

    // a merge here: the read sees the new link
    MemoryRecord extra = record("a", "A fact written later", TurnRef.of("s2", 0));
    StoreWrites.encode(store, "a", List.of(extra), List.of(node("a", "key0", List.of(extra.id()), "s2")));
    assertThat(store.nodeRecordIds("a", List.of(key0)).get(key0)).contains(extra.id());
    assertThat(links("a", ids("a"))).isEqualTo(fromTheTable("a", ids("a")));

    // another process writes a session: new nodes and merges into stored ones
    write(plain, "a", "s3");
    assertThat(links("a", ids("a"))).isEqualTo(fromTheTable("a", ids("a")))
        .anySatisfy(e -> assertThat(e.getKey()).isEqualTo(EvidenceNode.idFor(NodeKind.ENTITY, "only-s3")));

    // another process forgets a session: its own node deleted, the merged ones rewritten without it
    List<String> before = ids("a");
    plain.forget("a", "s0");
    assertThat(ids("a")).hasSizeLessThan(before.size());
    assertThat(links("a", before)).isEqualTo(fromTheTable("a", before))
        .noneSatisfy(e -> assertThat(e.getKey()).isEqualTo(EvidenceNode.idFor(NodeKind.ENTITY, "only-s0")));

    // caught up once, the reads come from memory again
    assertThat(readsMatchTheTable("a", 3)).isZero();
  }
}
