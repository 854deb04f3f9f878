package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.node;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read point of the SQLite store ({@link VersionPoint}): the reads of one recall of a namespace
 * ask SQLite for the file's data version once, not once per read, and still see every write
 * committed before the point's first read, by this store or by another instance over the file;
 * what another instance commits later is seen outside the point and by the next one. The reads
 * counted are the {@code PRAGMA data_version} statements of the reading store's database.
 */
class VersionPointTest {
  private static final String AMY = EvidenceNode.idFor(NodeKind.ENTITY, "amy");

  @TempDir Path dir;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private SqliteRecordStore other;

  @BeforeEach
  void open() {
    Path file = dir.resolve("p.db");
    db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    other = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()));
    for (String ns : List.of("a", "b")) {
      write(other, ns, 0, "Amy plays the guitar");
    }
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  /** Turn {@code index} of session s1, with a record of it and an entity node and a temporal node linking the record. */
  private static void write(SqliteRecordStore into, String ns, int index, String text) {
    into.appendTurns(ns, "s1", List.of(turn(ns, "s1", index, text)));
    MemoryRecord r = record(ns, text, TurnRef.of("s1", index));
    EvidenceNode amy = node(ns, NodeKind.ENTITY, "amy", "Amy", List.of(r.id()), "s1", null);
    EvidenceNode day = node(ns, NodeKind.TEMPORAL, "day:2023-05-0" + (index + 1), "a day", List.of(r.id()), "s1", null);
    StoreWrites.encode(into, ns, List.of(r), List.of(amy, day));
  }

  /** What a recall reads of a namespace, every kind of read of the store that asks the version. */
  private record Seen(List<ScoredId> turnHits, List<ScoredId> recordHits, List<RawTurn> window,
      List<RawTurn> turns, List<MemoryRecord> records, Map<String, List<String>> links, LinkedRecords linked,
      List<EvidenceNode> temporal, List<EvidenceNode> nodes) {}

  private Seen readAll(String ns) {
    List<ScoredId> recordHits = store.searchText(ns, TextField.RECORDS, "guitar", 10);
    List<String> ids = recordHits.stream().map(ScoredId::id).toList();
    return new Seen(store.searchText(ns, TextField.TURNS, "guitar", 10), recordHits,
        store.turns(ns, "s1", 0, 10), store.turns(ns, List.of(TurnRef.of("s1", 0), TurnRef.of("s1", 1))),
        store.records(ns, ids), store.nodeRecordIds(ns, List.of(AMY)),
        store.linkedRecords(ns, List.of(AMY), 10), store.nodes(ns, NodeKind.TEMPORAL),
        store.nodes(ns, List.of(AMY)));
  }

  private long versionReads(Runnable reads) {
    long before = db.dataVersionReads();
    reads.run();
    return db.dataVersionReads() - before;
  }

  @Test
  void theReadsOfARecallInsideAPointAskTheVersionOnceAndAnswerAsOutside() {
    readAll("a"); // the copies are caught up once
    Seen outside = readAll("a");
    assertThat(versionReads(() -> readAll("a"))).as("version reads outside a point").isGreaterThanOrEqualTo(9);

    ReadPoint point = store.readPoint("a");
    Seen[] inside = new Seen[1];
    assertThat(versionReads(() -> inside[0] = point.call(() -> readAll("a")))).as("inside one point").isEqualTo(1);
    assertThat(inside[0]).isEqualTo(outside);
    assertThat(outside.records()).hasSize(1);
    assertThat(outside.linked().records()).hasSize(1);
    assertThat(outside.temporal()).hasSize(1);
  }

  @Test
  void aPointSeesWhatWasCommittedBeforeItsFirstReadAndTheNextPointWhatCameAfter() {
    readAll("a");
    // another instance commits a turn, a record and nodes before the point: the point's reads see them
    write(other, "a", 1, "Amy sold her guitar");
    ReadPoint point = store.readPoint("a");
    Seen first = point.call(() -> {
      Seen seen = readAll("a");
      // committed after the point's first read: the reads inside it ask no version again
      write(other, "a", 2, "Amy bought a guitar");
      assertThat(versionReads(() -> readAll("a"))).isZero();
      // another thread inside the same point reads at the same version, without asking either
      assertThat(versionReads(() -> CompletableFuture.supplyAsync(() -> point.call(() -> readAll("a"))).join()))
          .isZero();
      return seen;
    });
    assertThat(first.window()).extracting(RawTurn::index).containsExactly(0, 1);
    assertThat(first.turns()).extracting(RawTurn::index).containsExactly(0, 1);
    assertThat(first.recordHits()).hasSize(2);
    assertThat(first.temporal()).hasSize(2);
    assertThat(first.links().get(AMY)).hasSize(2);

    // outside the point, and in the next one, every read sees the later write
    Seen after = readAll("a");
    assertThat(after.window()).extracting(RawTurn::index).containsExactly(0, 1, 2);
    assertThat(after.recordHits()).hasSize(3);
    assertThat(after.temporal()).hasSize(3);
    assertThat(after.links().get(AMY)).hasSize(3);
    assertThat(store.readPoint("a").call(() -> readAll("a"))).isEqualTo(after);
  }

  @Test
  void aPointCountsOnlyForItsOwnNamespaceAndDatabase() {
    readAll("a");
    readAll("b");
    long outside = versionReads(() -> readAll("b"));
    // a read of another namespace inside a point asks the version as outside
    assertThat(versionReads(() -> store.readPoint("a").call(() -> readAll("b")))).isEqualTo(outside);
    // a point of another database over the same file does not answer this store's reads
    assertThat(versionReads(() -> other.readPoint("a").call(() -> readAll("a")))).isEqualTo(outside);
    // the innermost point counts: a's point inside b's point answers a's reads once
    assertThat(versionReads(() -> store.readPoint("b").call(() -> store.readPoint("a").call(() -> readAll("a")))))
        .isEqualTo(1);
  }
}
