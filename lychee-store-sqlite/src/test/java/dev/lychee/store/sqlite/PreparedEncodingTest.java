package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment's encoding is merged with the stored records and nodes before the write transaction
 * ({@link SqliteRecordStore#prepare}), so the transaction reads no stored row while nothing of the
 * namespace was written since; a plan behind the file (a merge or a forgetting committed between,
 * here by another process) is planned again inside the transaction, so nothing committed between
 * is lost or brought back.
 */
class PreparedEncodingTest {
  private static final String NS = "ns";
  private static final String ANN = EvidenceNode.idFor(NodeKind.ENTITY, "ann");

  @TempDir Path dir;
  private SqliteRecordStore store;
  private SqliteRecordStore other;
  private AtomicInteger rowStatements;
  private MemoryRecord first;

  @BeforeEach
  void open() {
    Path file = dir.resolve("e.db");
    SqliteDatabase db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    other = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()));
    rowStatements = TableStatements.count(db, "records", "nodes");
    for (String s : List.of("s0", "s1", "s2")) {
      store.appendTurns(NS, s, List.of(turn(NS, s, 0, "Ann met Bo")));
    }
    first = record(NS, "Ann met Bo.", TurnRef.of("s0", 0));
    StoreWrites.encode(store, NS, List.of(first), List.of(ann(first, "s0")));
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  private static EvidenceNode ann(MemoryRecord r, String session) {
    return new EvidenceNode(null, NS, NodeKind.ENTITY, "ann", "Ann", "Ann", List.of(r.id()), List.of(session),
        List.of("Ann"), List.of(), null, List.of(new TurnRange(session, 0, 0)));
  }

  /** A pending segment of session {@code s} and its encoding, prepared but not committed. */
  private SqliteRecordStore.PreparedEncoding prepared(String s, MemoryRecord r) {
    Segment segment = new Segment(NS, s, List.of(turn(NS, s, 0, "Ann met Bo")), 1, 0, CloseReason.SESSION_FLUSH,
        Double.NaN, Double.NaN);
    store.putSegment(segment, SegmentState.PENDING);
    return store.prepare(NS, segment.id(), List.of(r), List.of(ann(r, s)));
  }

  private List<String> annLinks() {
    return other.nodes(NS, List.of(ANN)).get(0).recordIds();
  }

  @Test
  void aCurrentPlanIsWrittenWithoutReadingStoredRowsInTheTransaction() {
    // merges into the stored record (same text: same id) and node
    MemoryRecord again = record(NS, "Ann met Bo.", TurnRef.of("s1", 0));
    SqliteRecordStore.PreparedEncoding e = prepared("s1", again);
    rowStatements.set(0);
    store.commit(e);
    assertThat(rowStatements).as("statements reading the record and node tables in the commit").hasValue(0);
    assertThat(other.records(NS)).singleElement()
        .satisfies(r -> assertThat(r.evidence()).containsExactly(TurnRef.of("s0", 0), TurnRef.of("s1", 0)));
    assertThat(other.nodes(NS, List.of(ANN))).singleElement()
        .satisfies(n -> assertThat(n.sessions()).containsExactly("s0", "s1"));
  }

  @Test
  void aPlanBehindTheFileIsPlannedAgain() {
    MemoryRecord mine = record(NS, "Ann likes tea.", TurnRef.of("s2", 0));
    SqliteRecordStore.PreparedEncoding e = prepared("s2", mine);
    // another process merges into the same node meanwhile
    MemoryRecord theirs = record(NS, "Ann plays chess.", TurnRef.of("s1", 0));
    StoreWrites.encode(other, NS, List.of(theirs), List.of(ann(theirs, "s1")));
    store.commit(e);
    assertThat(annLinks()).containsExactly(first.id(), theirs.id(), mine.id());

    // another process forgets the session of the node's first record after the plan was read
    MemoryRecord later = record(NS, "Ann likes jam.", TurnRef.of("s2", 0));
    SqliteRecordStore.PreparedEncoding f = prepared("s2", later);
    other.forget(NS, "s0");
    store.commit(f);
    assertThat(annLinks()).containsExactly(theirs.id(), mine.id(), later.id());
    assertThat(other.records(NS)).extracting(MemoryRecord::id).doesNotContain(first.id());
  }
}
