package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.NodeKind;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.RecordStore;
import com.google.inject.AbstractModule;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.Duration;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Round trips of the calls that recall and append make many times: counted at the JDBC driver
 * (statements and commits), which does not depend on the machine's load as a timing would.
 */
class RoundTripsTest {
  private CountingDataSource counting;
  private PostgresDatabase db;
  private RecordStore store;

  @BeforeEach
  void open() {
    counting = new CountingDataSource(TestPostgres.get().url());
    // one pooled connection: a transaction's setting, were it to leak, would reach the next one
    PostgresStoreConfig config = PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).build();
    db = PostgresDatabase.open(counting, config);
    store = CheckedRecordStore.of(new PostgresRecordStore(db));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aTurnVectorIsOneStatementThatSkipsTheFlushWait() {
    try (PostgresVectorIndex index = new PostgresVectorIndex(db)) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", new float[] {1, 0, 0}));
      counting.drain();
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:1", new float[] {0, 1, 0}));
      List<String> sent = counting.drain();
      // autocommit: the statement is its own transaction, committed before the server answers
      assertThat(sent).as("statements sent: %s", sent).hasSize(1).noneMatch("COMMIT"::equals);
      assertThat(sent).noneMatch(sql -> sql.toUpperCase(Locale.ROOT).startsWith("SET"));
      // the one pooled connection is back in autocommit with the server's own commit mode
      String after = db.read(h -> h.createQuery("SHOW synchronous_commit").mapTo(String.class).one());
      assertThat(after).isEqualTo("on");
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:2", new float[] {0, 0, 1}, "s:0", new float[] {0.6f, 0.8f, 0}));
      assertThat(index.search("ns", VectorIndex.TURNS, new float[] {0, 1, 0}, 3, null)).extracting(ScoredId::id)
          .containsExactly("s:1", "s:0", "s:2");
    }
    // what that relies on: the statement's set_config(..., true) turns the flush wait off for its
    // own transaction, up to its commit, and for no other
    VectorTable table = new VectorTable();
    String inside = db.write(h -> {
      table.upsert(h, "ns", VectorIndex.TURNS, Map.of("s:3", new float[] {0, 0, 1}), 3, true);
      return h.createQuery("SHOW synchronous_commit").mapTo(String.class).one();
    });
    assertThat(inside).isEqualTo("off");
    String next = db.write(h -> h.createQuery("SHOW synchronous_commit").mapTo(String.class).one());
    assertThat(next).isEqualTo("on");
    String records = db.write(h -> {
      table.upsert(h, "ns", VectorIndex.RECORDS, Map.of("r1", new float[] {0, 0, 1}), 3, false);
      return h.createQuery("SHOW synchronous_commit").mapTo(String.class).one();
    });
    assertThat(records).as("other vectors commit durably").isEqualTo("on");
  }

  private static MemoryRecord record(String id, String text) {
    return new MemoryRecord(id, "ns", MemoryType.FACT, text, List.of(), List.of(), TemporalScope.NONE,
        List.of(TurnRef.of("s1", 0)), "s1", "s1:0-3", SourceRole.USER, LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  private static EvidenceNode node(NodeKind kind, String key, List<String> recordIds) {
    return new EvidenceNode(null, "ns", kind, key, key, key, recordIds, List.of("s1"), List.of(key), List.of(),
        null, List.of(new TurnRange("s1", 0, 3)));
  }

  /**
   * A session's turns stored in one call (as an ingest stores a conversation's session) go to the
   * server in one batch, one round trip while the transaction holds the session's row lock (before
   * round nineteen one statement per turn); a turn stored already is skipped, as before.
   */
  @Test
  void aSessionsTurnsAreInsertedInOneBatch() {
    List<RawTurn> first = List.of(turn(0, "We moved to Lisbon."), turn(1, "The tram is loud."));
    store.appendTurns("ns", "s1", first);
    counting.drain();
    List<RawTurn> batch = new java.util.ArrayList<>(List.of(turn(1, "The tram is loud.")));
    for (int i = 2; i < 8; i++) {
      batch.add(turn(i, "Turn number " + i + " of the session."));
    }
    List<RawTurn> added = store.appendTurns("ns", "s1", batch);
    List<String> sent = counting.drain();
    assertThat(sent.stream().filter(sql -> sql.startsWith("INSERT INTO turns"))).as("statements sent: %s", sent)
        .hasSize(1);
    assertThat(added).extracting(RawTurn::index).containsExactly(2, 3, 4, 5, 6, 7);
    assertThat(store.turns("ns", "s1")).extracting(RawTurn::text).startsWith("We moved to Lisbon.", "The tram is loud.")
        .hasSize(8);
    assertThat(store.nextTurnIndex("ns", "s1")).isEqualTo(8);
  }

  private static RawTurn turn(int index, String text) {
    return new RawTurn("ns", TurnRef.of("s1", index), Role.USER, "Amy", text, LocalDateTime.of(2023, 5, 7, 13, index));
  }

  /**
   * What an asynchronous {@code append} of one turn, in order, waits for on the caller's thread
   * (the background lane's writes are not counted): the turn's one statement in autocommit
   * (session row lock checking the next index this instance saw, turn, next index and run record,
   * {@link TurnTable#appendInOrder}) and the turn vector's one statement in autocommit (head row
   * with the commit mode, tombstones and vector): 2, where round seventeen's were 5 (the turn's
   * transaction: lock, turn, next index and run record, commit) and round fourteen's 8.
   */
  @Test
  void anAsyncAppendInOrderWaitsForTwoRoundTrips() {
    store.close();
    PostgresStoreConfig config = PostgresStoreConfig.builder().maxPoolSize(3).schema(TestPostgres.freshSchema()).build();
    LycheeConfig lychee = LycheeConfig.builder().ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC)
        .resumeOnOpen(false).build()).build();
    try (Lychee memory = Lychee.create(lychee, new PostgresStoreModule(counting, config), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
      }
    })) {
      memory.append("ns", "s1", null, List.of(Turn.user("Amy", "I adopted a grey cat last spring.").withIndex(0)));
      memory.awaitIdle("ns", Duration.ofMinutes(1));
      counting.drain();
      memory.append("ns", "s1", null, List.of(Turn.user("Amy", "She sleeps on my keyboard.").withIndex(1)));
      List<String> sent = counting.drainMine();
      assertThat(sent).as("statements sent: %s", sent).hasSize(2);
      assertThat(sent).noneMatch(sql -> sql.contains("MAX(next_idx)"));
      assertThat(sent).noneMatch("COMMIT"::equals);
      assertThat(sent.get(0)).startsWith("WITH lock AS (UPDATE sessions");
      memory.awaitIdle("ns", Duration.ofMinutes(1));
    }
    store = CheckedRecordStore.of(new PostgresRecordStore(db = PostgresDatabase.open(counting,
        PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).build())));
  }

  /**
   * What a recall sends once the namespace's copies are loaded: one statement, for every head its
   * reads need (turns, rows and each vector kind, {@link HeadPoint}). Round eighteen's recall sent
   * the records' full-text search besides, which the server answered (round nineteen answers it
   * from the local rows' postings); round seventeen's sent a head per store call, 9 or 10 of them
   * (docs/measurements.md §6, rounds eighteen and nineteen).
   */
  @Test
  void aRecallSendsOneStatementTheHeads() {
    store.close();
    try (Lychee memory = TwoSessionLychee.open(counting)) {
      memory.recall("ns", "What is the name of Amy's cat?");
      for (String question : List.of("What is the name of Amy's cat?", "Where did Bob move to?")) {
        counting.drain();
        assertThat(memory.recall("ns", question).evidence()).isNotEmpty();
        List<String> sent = counting.drain();
        // round nineteen: the records' search runs from the local rows' postings, so the heads
        // statement is the recall's only one (the records' ts_rank query besides it before)
        assertThat(sent).as("statements sent: %s", sent).singleElement()
            .satisfies(sql -> assertThat(sql).contains("turn_heads").contains("row_heads").contains("vector_heads"));
      }
    }
    store = CheckedRecordStore.of(new PostgresRecordStore(db = PostgresDatabase.open(counting,
        PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).build())));
  }

  /**
   * With local rows off, PostgreSQL keeps {@code linkedRecords}' default, the node links and then
   * the records: a one-statement union was measured slower on a local server (docs/defaults.md
   * §3.3).
   */
  @Test
  void withoutLocalRowsTheNodesLinksAndTheirRecordsAreTwoIndexReads() {
    store.close();
    store = CheckedRecordStore.of(new PostgresRecordStore(db = PostgresDatabase.open(counting,
        PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).localRows(false).build())));
    linkedRecordsIn(2, false);
  }

  /**
   * With local rows (the default), the links and the records come from the namespace's copy once
   * one statement, the head, has said it is current.
   */
  @Test
  void withLocalRowsTheNodesLinksAndTheirRecordsAreOneHeadRead() {
    linkedRecordsIn(1, true);
  }

  private void linkedRecordsIn(int statements, boolean warm) {
    MemoryRecord r1 = record("r1", "Amy plays the guitar");
    MemoryRecord r2 = record("r2", "Amy moved to Paris");
    MemoryRecord r3 = record("r3", "Zed sings in a choir");
    EvidenceNode music = node(NodeKind.TAG, "music", List.of("r3", "r1", "r2"));
    EvidenceNode amy = node(NodeKind.ENTITY, "amy", List.of("r2", "r1"));
    StoreWrites.encode(store, "ns", List.of(r1, r2, r3), List.of(music, amy));
    if (warm) {
      // the first read loads the namespace's copy
      store.records("ns", List.of("r1"));
    }
    counting.drain();

    LinkedRecords read = store.linkedRecords("ns", List.of(music.id(), amy.id()), 2);

    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).hasSize(statements);
    assertThat(read.recordIds()).containsExactly(
        org.assertj.core.api.Assertions.entry(music.id(), List.of("r3", "r1")),
        org.assertj.core.api.Assertions.entry(amy.id(), List.of("r2", "r1")));
    assertThat(read.records()).containsExactly(r3, r1, r2);
  }
}
