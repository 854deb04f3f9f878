package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
import dev.lychee.api.SegmentState;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A segment's {@code commitClaimed}, which the encoder sends for every segment (round twenty-one):
 * the claim's end with the records' locking read in one round trip, the records' writes with the
 * nodes' locking read in a second, the nodes' writes in a third, then {@code COMMIT}; before it was
 * eight round trips with merged rows (six without).
 */
class CommitClaimedTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private CountingDataSource counting;
  private PostgresDatabase db;
  private PostgresRecordStore store;
  private PostgresSegmentClaims claims;
  private List<Segment> segments;

  @BeforeEach
  void open() {
    counting = new CountingDataSource(TestPostgres.get().url());
    db = PostgresDatabase.open(counting, PostgresStoreConfig.builder().maxPoolSize(1)
        .schema(TestPostgres.freshSchema()).claimWait(Duration.ZERO).build());
    store = new PostgresRecordStore(db);
    claims = new PostgresSegmentClaims(db);
    List<RawTurn> t = turns("ns", "s", 0, 4, new Random(7), "x");
    store.appendTurns("ns", "s", t);
    segments = List.of(segment(t.subList(0, 2), CloseReason.TARGET_LENGTH),
        segment(t.subList(2, 4), CloseReason.TARGET_LENGTH));
    segments.forEach(s -> store.putSegment(s, SegmentState.PENDING));
  }

  @AfterEach
  void close() {
    store.close();
  }

  /**
   * Two segments' commits, the second merging into rows the first stored: each is three statements
   * and a {@code COMMIT}, the nodes locked after the records' writes (in the second statement), and
   * what is stored is what one put per row would store (merged provenance, new rows after the
   * stored ones in the order given, every segment ENCODED).
   */
  @Test
  void aSegmentsCommitIsThreeStatementsAndACommitWithMergedRows() {
    SegmentClaim first = claims.claim(segments.get(0), "me", LEASE).orElseThrow();
    counting.drain();
    assertThat(claims.commitClaimed(first, List.of(record("r1", 0), record("r2", 1)),
        List.of(node("amy", "r1"), node("bob", "r2")))).isTrue();
    List<String> sent = counting.drain();
    assertThat(sent).as(String.join("\n", sent)).hasSize(4).last().isEqualTo("COMMIT");
    assertThat(sent.get(0)).startsWith("UPDATE segments").contains("JOIN records").doesNotContain("nodes");
    assertThat(sent.get(1)).startsWith("INSERT INTO records").contains("JOIN nodes");
    assertThat(sent.get(2)).startsWith("INSERT INTO nodes").doesNotContain("records");

    SegmentClaim second = claims.claim(segments.get(1), "me", LEASE).orElseThrow();
    counting.drain();
    assertThat(claims.commitClaimed(second, List.of(record("r3", 2), record("r1", 3), record("r1", 2)),
        List.of(node("amy", "r3"), node("cat", "r3"), node("bob", "r2")))).isTrue();
    sent = counting.drain();
    assertThat(sent).as(String.join("\n", sent)).hasSize(4).last().isEqualTo("COMMIT");

    assertThat(store.records("ns")).extracting(MemoryRecord::id).containsExactly("r1", "r2", "r3");
    assertThat(store.records("ns", List.of("r1")).get(0).evidence())
        .containsExactlyInAnyOrder(TurnRef.of("s", 0), TurnRef.of("s", 3), TurnRef.of("s", 2));
    List<EvidenceNode> entities = store.nodes("ns", NodeKind.ENTITY);
    assertThat(entities).extracting(EvidenceNode::key).containsExactly("amy", "bob", "cat");
    assertThat(entities.get(0).recordIds()).containsExactly("r1", "r3");
    assertThat(entities.get(1).recordIds()).containsExactly("r2");
    assertThat(store.segments("ns")).extracting(s -> s.state()).containsOnly(SegmentState.ENCODED);
  }

  /**
   * Commits of segments with different numbers of records and nodes send the same statement texts,
   * so the driver keeps each prepared on the server after its first uses and the server plans it
   * from there on as one statement (round twenty-two: each column's values as one array; a
   * {@code VALUES} row per record or node made a new text for every row count, parsed and planned
   * afresh by JDBI, the driver and the server for every segment).
   */
  @Test
  void commitsOfAnyRowCountSendTheSameStatementsAndTheServerKeepsThemPrepared() {
    List<RawTurn> t = turns("ns", "t", 0, 16, new Random(11), "y");
    store.appendTurns("ns", "t", t);
    List<Segment> eight = new ArrayList<>();
    for (int i = 0; i < 16; i += 2) {
      eight.add(segment(t.subList(i, i + 2), CloseReason.TARGET_LENGTH));
    }
    eight.forEach(s -> store.putSegment(s, SegmentState.PENDING));
    Set<List<String>> texts = new HashSet<>();
    for (int i = 0; i < eight.size(); i++) {
      SegmentClaim claim = claims.claim(eight.get(i), "me", LEASE).orElseThrow();
      // from the second segment on: one stored record and node merged into, and i + 1 new ones
      List<MemoryRecord> recs = new ArrayList<>(List.of(record("r0", i)));
      List<EvidenceNode> nodes = new ArrayList<>(List.of(node("amy", "r" + i)));
      for (int j = 0; j <= i; j++) {
        recs.add(record("r" + i + "-" + j, i));
        nodes.add(node("k" + i + "-" + j, "r" + i + "-" + j));
      }
      counting.drain();
      assertThat(claims.commitClaimed(claim, recs, nodes)).isTrue();
      if (i > 0) {
        texts.add(counting.drain());
      }
    }
    assertThat(texts).as("statement texts of seven commits of 3 to 9 rows per table").hasSize(1);
    assertThat(store.records("ns")).hasSize(1 + 36);
    assertThat(store.nodes("ns", NodeKind.ENTITY).get(0).recordIds()).hasSize(8);

    // what the driver keeps prepared on the (one) pooled connection; a pipeline's later statements start on a new line
    List<String> prepared = db.read(h -> h.createQuery("SELECT statement FROM pg_prepared_statements")
        .mapTo(String.class).list()).stream().map(String::strip)
        .filter(q -> q.startsWith("INSERT INTO records") || q.startsWith("INSERT INTO nodes")
            || q.startsWith("UPDATE records AS t") || q.startsWith("UPDATE nodes AS t") || q.startsWith("SELECT CAST(s.ctid"))
        .toList();
    assertThat(prepared).as(String.join("\n", prepared)).hasSize(6);
  }

  /** A claim another owner holds: one statement and a {@code COMMIT}, nothing written, the claim kept. */
  @Test
  void aCommitWithoutTheClaimWritesNothing() {
    SegmentClaim mine = claims.claim(segments.get(0), "me", LEASE).orElseThrow();
    SegmentClaim stale = new SegmentClaim(mine.segment(), "someone else", mine.leaseUntil(), 0);
    counting.drain();
    assertThat(claims.commitClaimed(stale, List.of(record("r1", 0)), List.of(node("amy", "r1")))).isFalse();
    assertThat(counting.drain()).hasSize(2).last().isEqualTo("COMMIT");
    assertThat(store.records("ns")).isEmpty();
    assertThat(store.nodes("ns", NodeKind.ENTITY)).isEmpty();
    assertThat(claims.commitClaimed(mine, List.of(record("r1", 0)), List.of(node("amy", "r1")))).isTrue();
    assertThat(store.records("ns")).extracting(MemoryRecord::id).containsExactly("r1");
  }

  private static MemoryRecord record(String id, int turn) {
    return new MemoryRecord(id, "ns", MemoryType.FACT, "text of " + id, List.of("Amy"), List.of(), TemporalScope.NONE,
        List.of(TurnRef.of("s", turn)), "s", "s:0-3", SourceRole.USER, LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  private static EvidenceNode node(String key, String recordId) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, key, key, key, List.of(recordId), List.of("s"), List.of(key),
        List.of(), null, List.of(new TurnRange("s", 0, 3)));
  }
}
