package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The change numbers of records and nodes (migration 6, round twenty): one per transaction and
 * namespace, the head row written once per transaction instead of once per row, and every reader
 * still seeing every change that committed.
 */
class RowStampTest {
  private String schema;
  private PostgresRecordStore rawA;
  private RecordStore a;
  private PostgresRecordStore rawB;
  private RecordStore b;

  @BeforeEach
  void open() {
    schema = TestPostgres.freshSchema();
    rawA = TestPostgres.rawStore(TestPostgres.get().url(), config());
    a = CheckedRecordStore.of(rawA);
    rawB = TestPostgres.rawStore(TestPostgres.get().url(), config());
    b = CheckedRecordStore.of(rawB);
  }

  private PostgresStoreConfig config() {
    return PostgresStoreConfig.builder().schema(schema).maxPoolSize(3).localRows(true).build();
  }

  @AfterEach
  void close() {
    a.close();
    b.close();
  }

  /**
   * A segment's records and nodes, inserted and merged in one transaction, share one change
   * number, the head's, and the head row is written once in it (once per row before: 11 times here).
   */
  @Test
  void aTransactionsRowsShareOneChangeNumberAndWriteTheHeadOnce() {
    StoreWrites.encode(b, "ns", List.of(record("r0", 0)), List.of(node("amy", List.of("r0"))));
    List<MemoryRecord> records = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      records.add(record("r" + i, i + 1));
    }
    List<EvidenceNode> nodes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      nodes.add(node(i == 0 ? "amy" : "k" + i, List.of("r" + i)));
    }
    RecordTable recordTable = new RecordTable();
    NodeTable nodeTable = new NodeTable();
    long headWrites = rawA.database().write(h -> {
      recordTable.rows.putAll(h, records);
      nodeTable.rows.putAll(h, nodes);
      // this transaction's own counts, not yet reported to the statistics collector
      return h.createQuery("SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables"
          + " WHERE schemaname = :schema AND relname = 'row_heads'").bind("schema", schema).mapTo(Long.class).one();
    });
    assertThat(headWrites).isEqualTo(1);
    List<Long> numbers = rawA.database().read(h -> h.createQuery("SELECT change_seq FROM records"
        + " UNION SELECT change_seq FROM nodes ORDER BY 1").mapTo(Long.class).list());
    long head = rawA.database().read(h -> h.createQuery("SELECT seq FROM row_heads WHERE namespace = 'ns'")
        .mapTo(Long.class).one());
    // the first segment's number (kept by "amy", whose merge changed nothing), then this
    // transaction's, which is the head's
    assertThat(numbers).hasSize(2).last().isEqualTo(head);
    assertThat(a.records("ns", List.of("r0")).get(0).evidence()).hasSize(2);
    assertThat(a.nodes("ns", List.of(node("amy", List.of()).id())).get(0).recordIds()).containsExactly("r0");
  }

  /**
   * Two instances writing one namespace at once: the second waits for the first's head lock and
   * takes a larger number; an instance reading while the first holds the lock sees neither, and
   * after both commits every row of both, the first's rows written before and after the second
   * began waiting alike.
   */
  @Test
  @Timeout(60)
  void aReaderSeesEveryCommittedChangeWhileTwoInstancesWrite() throws Exception {
    StoreWrites.records(a, "ns", List.of(record("r0", 0)));
    assertThat(a.records("ns", List.of("r0"))).hasSize(1);
    RecordTable recordTable = new RecordTable();
    CountDownLatch stamped = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    int[] holderPid = new int[1];
    CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> rawB.database().write(h -> {
      holderPid[0] = h.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one();
      recordTable.rows.putAll(h, List.of(record("r1", 1)));
      stamped.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      recordTable.rows.putAll(h, List.of(record("r2", 2), record("r0", 9)));
      return null;
    }));
    assertThat(stamped.await(30, TimeUnit.SECONDS)).isTrue();
    RecordStore c = CheckedRecordStore.of(TestPostgres.rawStore(TestPostgres.get().url(), config()));
    try {
      CompletableFuture<Void> waiting = CompletableFuture.runAsync(
          () -> StoreWrites.records(c, "ns", List.of(record("r3", 3))));
      waitUntilBlockedBy(holderPid[0]);
      List<String> ids = List.of("r0", "r1", "r2", "r3");
      assertThat(a.records("ns", ids)).extracting(MemoryRecord::id).containsExactly("r0");
      release.countDown();
      holder.get(30, TimeUnit.SECONDS);
      waiting.get(30, TimeUnit.SECONDS);
      List<MemoryRecord> seen = a.records("ns", ids);
      assertThat(seen).extracting(MemoryRecord::id).containsExactly("r0", "r1", "r2", "r3");
      assertThat(seen.get(0).evidence()).hasSize(2);
      long holders = rawA.database().read(h -> h.createQuery("SELECT change_seq FROM records WHERE id = 'r1'")
          .mapTo(Long.class).one());
      long waiter = rawA.database().read(h -> h.createQuery("SELECT change_seq FROM records WHERE id = 'r3'")
          .mapTo(Long.class).one());
      assertThat(waiter).isGreaterThan(holders);
      assertThat(b.records("ns", ids)).isEqualTo(seen);
    } finally {
      release.countDown();
      c.close();
    }
  }

  /** A deletion in the transaction moves the head to a new epoch; rows written after it stamp afresh. */
  @Test
  void rowsWrittenAfterADeletionInTheTransactionAreSeen() {
    StoreWrites.records(a, "ns", List.of(record("r0", 0), record("r1", 1)));
    assertThat(b.records("ns", List.of("r0", "r1"))).hasSize(2);
    RecordTable recordTable = new RecordTable();
    rawA.database().write(h -> {
      recordTable.rows.putAll(h, List.of(record("r2", 2)));
      recordTable.rows.delete(h, "ns", List.of("r0"));
      recordTable.rows.putAll(h, List.of(record("r3", 3)));
      return null;
    });
    assertThat(b.records("ns", List.of("r0", "r1", "r2", "r3"))).extracting(MemoryRecord::id)
        .containsExactly("r1", "r2", "r3");
    long head = rawA.database().read(h -> h.createQuery("SELECT seq FROM row_heads WHERE namespace = 'ns'")
        .mapTo(Long.class).one());
    long r3 = rawA.database().read(h -> h.createQuery("SELECT change_seq FROM records WHERE id = 'r3'")
        .mapTo(Long.class).one());
    assertThat(r3).isEqualTo(head);
  }

  private void waitUntilBlockedBy(int pid) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      int blocked = rawA.database().read(h -> h.createQuery(
          "SELECT COUNT(*) FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))").bind("pid", pid)
          .mapTo(Integer.class).one());
      if (blocked > 0) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no backend waited for the holder's head lock");
  }

  private static MemoryRecord record(String id, int turn) {
    return new MemoryRecord(id, "ns", MemoryType.FACT, "Amy fact " + id, List.of("Amy"), List.of(),
        TemporalScope.NONE, List.of(TurnRef.of("s1", turn)), "s1", "s1:0-3", SourceRole.USER,
        LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  private static EvidenceNode node(String key, List<String> recordIds) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, key, key, key, recordIds, List.of("s1"), List.of(key),
        List.of(), null, List.of(new TurnRange("s1", 0, 3)));
  }
}
