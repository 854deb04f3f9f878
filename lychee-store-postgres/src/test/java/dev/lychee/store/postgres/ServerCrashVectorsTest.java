package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A local vector copy made before a server restart is never trusted after it (round twenty-three).
 * Turn vectors, and the batch of a segment's record and node vectors, commit without waiting for
 * the WAL flush, and other instances see them at once; a crash can lose them, and after recovery
 * the heads are back at older numbers and {@code vector_changes} hands the lost numbers out again.
 * An instance whose copy saw the lost commits must still see what is written after the restart
 * under the reused numbers, on each way a search reads its head: its own head row ({@code
 * search}), the heads of several kinds ({@code searchKinds}), and a read point's heads.
 *
 * <p>What a crash leaves is made by hand (the newest vector rows deleted, the heads and the
 * sequence set back), then the server is restarted, or one of its processes killed so that the
 * postmaster recovers without restarting; either breaks every connection as a crash does.
 */
class ServerCrashVectorsTest {
  private static final String ENTITIES = VectorIndex.nodes(NodeKind.ENTITY);
  private static final List<String> KINDS = List.of(VectorIndex.TURNS, VectorIndex.RECORDS, ENTITIES);
  private static final float[] KEPT = {1, 0, 0};
  private static final float[] LOST = {0, 1, 0};
  private static final float[] AFTER = {0, 0, 1};

  private TestPostgres server;
  private String schema;
  private PostgresRecordStore storeA;
  private PostgresVectorIndex a;
  private PostgresVectorIndex b;

  @BeforeEach
  void open() {
    server = TestPostgres.get();
    assumeTrue(server.owned(), "LYCHEE_PG_URL points at a server the tests must not restart");
    schema = TestPostgres.freshSchema();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2)
        .retryFor(Duration.ofSeconds(90)).connectTimeout(Duration.ofSeconds(2)).build();
    PostgresDatabase dbA = PostgresDatabase.open(server.url(), config);
    storeA = new PostgresRecordStore(dbA);
    a = new PostgresVectorIndex(dbA);
    b = PostgresVectorIndex.open(server.url(), config);
  }

  @AfterEach
  void close() {
    if (a != null) {
      a.close();
      storeA.close();
      b.close();
    }
  }

  /** A's nearest vector to {@code query} in each kind, each read its own way (see the class comment). */
  private Map<String, List<String>> nearest(float[] query, int k) {
    List<String> turns = ids(a.search("ns", VectorIndex.TURNS, query, k, null));
    List<String> records = ids(a.searchKinds("ns", List.of(VectorIndex.RECORDS), List.of(query), k, null)
        .get(VectorIndex.RECORDS).get(0));
    List<String> entities = storeA.readPoint("ns").call(() -> ids(a.search("ns", ENTITIES, query, k, null)));
    return Map.of(VectorIndex.TURNS, turns, VectorIndex.RECORDS, records, ENTITIES, entities);
  }

  private static List<String> ids(List<ScoredId> hits) {
    return hits.stream().map(ScoredId::id).toList();
  }

  private void writeAll(PostgresVectorIndex index, String id, float[] v) {
    for (String kind : KINDS) {
      index.upsert("ns", kind, Map.of(id, v));
    }
  }

  private long maxSeq(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT max(seq) FROM vector_heads")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** A crash or restart of the server (after the test has made what the crash left). */
  private interface Crash {
    void run() throws Exception;
  }

  @Test
  @Timeout(240)
  void writesUnderNumbersReusedAfterARestartReachACopyThatSawTheLostOnes() throws Exception {
    lostCommitsLeaveNoCopyBehind(server::restart);
  }

  /** The postmaster's crash recovery after a backend died keeps its start time; the copy still goes. */
  @Test
  @Timeout(240)
  void writesUnderNumbersReusedAfterABackendCrashReachACopyThatSawTheLostOnes() throws Exception {
    lostCommitsLeaveNoCopyBehind(server::crashBackend);
  }

  private void lostCommitsLeaveNoCopyBehind(Crash crash) throws Exception {
    writeAll(a, "kept", KEPT);
    long kept;
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("SET search_path TO " + schema);
      kept = maxSeq(c);
    }
    writeAll(a, "lost", LOST);
    // A's copies now hold "lost", at numbers above kept
    assertThat(nearest(LOST, 1)).allSatisfy((kind, hits) -> assertThat(hits).containsExactly("lost"));

    // what a crash leaves when the last unsynced commits never reached the WAL on disk
    long seen;
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("SET search_path TO " + schema);
      seen = maxSeq(c);
      s.execute("DELETE FROM vectors WHERE seq > " + kept);
      s.execute("UPDATE vector_heads h SET seq = (SELECT max(v.seq) FROM vectors v"
          + " WHERE v.namespace = h.namespace AND v.kind = h.kind)");
      s.execute("SELECT setval('vector_changes', " + kept + ")");
    }
    crash.run();

    // B's writes take the lost numbers again
    writeAll(b, "after", AFTER);
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("SET search_path TO " + schema);
      assertThat(maxSeq(c)).as("numbers reused").isGreaterThan(kept).isLessThanOrEqualTo(seen);
    }
    assertThat(nearest(AFTER, 1)).allSatisfy((kind, hits) -> assertThat(hits).as(kind).containsExactly("after"));
    assertThat(nearest(LOST, 5)).allSatisfy((kind, hits) -> assertThat(hits).as(kind)
        .containsExactlyInAnyOrder("kept", "after"));
  }

  @Test
  @Timeout(240)
  void aRestartThatLostNothingKeepsEveryAnswer() throws Exception {
    writeAll(a, "one", KEPT);
    writeAll(b, "two", LOST);
    Map<String, List<String>> before = nearest(AFTER, 5);
    long loads = a.fullLoads();
    server.restart();

    assertThat(nearest(AFTER, 5)).isEqualTo(before);
    assertThat(a.fullLoads()).as("each copy read afresh once").isEqualTo(loads + KINDS.size());
    writeAll(b, "three", AFTER);
    assertThat(nearest(AFTER, 1)).allSatisfy((kind, hits) -> assertThat(hits).as(kind).containsExactly("three"));
    assertThat(a.fullLoads()).as("and caught up by replay after that").isEqualTo(loads + KINDS.size());
  }
}
