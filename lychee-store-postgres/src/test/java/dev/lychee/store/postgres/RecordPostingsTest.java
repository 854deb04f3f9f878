package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ScoredId;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The records' full-text search answered from the postings kept beside an instance's local rows
 * (round nineteen, docs/defaults.md §3.3) gives exactly what the database's {@code ts_rank} query
 * gives, and sees every record another instance on the same database writes, merges or deletes by
 * the next search, inside a recall's read point as outside it.
 */
class RecordPostingsTest {
  private String schema;
  private CountingDataSource counting;
  private PostgresRecordStore rawA;
  private RecordStore a;
  private RecordStore b;

  @BeforeEach
  void open() {
    schema = TestPostgres.freshSchema();
    counting = new CountingDataSource(TestPostgres.get().url());
    rawA = new PostgresRecordStore(PostgresDatabase.open(counting, config()));
    a = CheckedRecordStore.of(rawA);
    b = CheckedRecordStore.of(TestPostgres.rawStore(TestPostgres.get().url(), config()));
  }

  private PostgresStoreConfig config() {
    return PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
  }

  @AfterEach
  void close() {
    a.close();
    b.close();
  }

  /** What the database answers for the same queries (the path every records' search took before). */
  private List<List<ScoredId>> database(String ns, List<String> queries, int k) {
    List<TextQuery> parsed = queries.stream().map(TextQuery::of).toList();
    return TestPostgres.databaseOf(b).read(h -> new RecordTable().searchAll(h, ns, parsed, k));
  }

  /** Random text as {@link TurnPostingsTest} searches it, trimmed. */
  private static String text(Random rnd, int words) {
    return TurnPostingsTest.text(rnd, words).trim();
  }

  private static MemoryRecord record(String id, String session, String text, List<String> entities,
      List<String> tags, int turn) {
    return new MemoryRecord(id, "ns", MemoryType.FACT, text, entities, tags, TemporalScope.NONE,
        List.of(TurnRef.of(session, turn)), session, session + ":0-3", SourceRole.USER,
        LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  private static MemoryRecord random(Random rnd, int id) {
    return record("r" + id, "s" + (id % 3), text(rnd, 1 + rnd.nextInt(20)), List.of(text(rnd, 1)),
        List.of(text(rnd, 1)), rnd.nextInt(9));
  }

  private int compare(Random rnd, int searches) {
    int compared = 0;
    for (int q = 0; q < searches; q++) {
      List<String> queries = new ArrayList<>();
      for (int v = 0; v < 1 + rnd.nextInt(3); v++) {
        queries.add(v == 0 && q % 10 == 0 ? "When did Rafael go?" : text(rnd, 1 + rnd.nextInt(6)) + " nowhere");
      }
      int k = 1 + rnd.nextInt(60);
      List<List<ScoredId>> expected = database("ns", queries, k);
      counting.drain();
      assertThat(a.searchTexts("ns", TextField.RECORDS, queries, k)).as("%s k %d", queries, k).isEqualTo(expected);
      assertThat(a.searchText("ns", TextField.RECORDS, queries.get(0), k)).isEqualTo(expected.get(0));
      List<String> sent = counting.drain();
      if (queries.stream().noneMatch(t -> t.contains("caf\u00e9"))) {
        assertThat(sent).as("statements sent: %s", sent).noneMatch(sql -> sql.contains("ts_rank"));
      }
      compared += expected.stream().mapToInt(List::size).sum();
    }
    return compared;
  }

  @Test
  void localSearchGivesTheDatabasesHitsScoresAndOrderExactlyAcrossMerges() {
    Random rnd = new Random(19);
    List<MemoryRecord> first = new ArrayList<>();
    for (int i = 0; i < 240; i++) {
      first.add(random(rnd, i));
    }
    StoreWrites.records(b, "ns", first);
    // a record of another namespace is never a hit
    StoreWrites.records(b, "other", List.of(new MemoryRecord("o1", "other", MemoryType.FACT, "amy race lake",
        List.of(), List.of(), TemporalScope.NONE, List.of(TurnRef.of("s0", 0)), "s0", "s0:0-3", SourceRole.USER,
        LocalDateTime.of(2023, 5, 7, 13, 0))));
    int compared = compare(rnd, 100);
    // the other instance merges new entities and tags into a third of the records (rewrites) and adds more
    List<MemoryRecord> second = new ArrayList<>();
    for (int i = 0; i < 240; i += 3) {
      MemoryRecord r = first.get(i);
      second.add(record(r.id(), r.session(), r.text(), List.of(text(rnd, 2)), List.of("pottery"), 9));
    }
    for (int i = 240; i < 300; i++) {
      second.add(random(rnd, i));
    }
    StoreWrites.records(b, "ns", second);
    compared += compare(rnd, 100);
    assertThat(compared).as("hits compared").isGreaterThan(3000);
    assertThat(rawA.localRowReads()).as("head reads, full loads, catch-ups").endsWith(1L, 1L);
    // a term the server splits ("caf\u00e9" lower-cases differently, "1e5x" is two lexemes) is searched there
    assertThat(a.searchText("ns", TextField.RECORDS, "caf\u00e9 1e5x", 10))
        .isEqualTo(database("ns", List.of("caf\u00e9 1e5x"), 10).get(0));
  }

  @Test
  void anotherInstancesWritesMergesAndDeletionsAreSeenByTheNextSearchInsideAReadPoint() {
    StoreWrites.records(b, "ns", List.of(record("r1", "s1", "Amy plays the guitar", List.of("Amy"), List.of(), 0),
        record("r2", "s2", "Bo paints the lake", List.of("Bo"), List.of(), 0)));
    assertThat(search("guitar")).extracting(ScoredId::id).containsExactly("r1");
    counting.drain();
    // while nothing changed, a search inside a recall's point sends the heads statement alone
    assertThat(search("guitar")).extracting(ScoredId::id).containsExactly("r1");
    List<String> sent = counting.drain();
    assertThat(sent).as("statements sent: %s", sent).singleElement()
        .satisfies(sql -> assertThat(sql).contains("row_heads"));

    // a new record
    StoreWrites.records(b, "ns", List.of(record("r3", "s1", "guitar lessons on Mondays", List.of(), List.of(), 1)));
    assertThat(search("guitar")).isEqualTo(database("ns", List.of("guitar"), 10).get(0))
        .extracting(ScoredId::id).containsExactlyInAnyOrder("r1", "r3");
    // a merge rewrites r2 with a tag that matches, and r1 with one that does not
    StoreWrites.records(b, "ns", List.of(record("r2", "s2", "Bo paints the lake", List.of("Bo"), List.of("guitar"), 1),
        record("r1", "s1", "Amy plays the guitar", List.of("Amy", "Paris"), List.of(), 2)));
    assertThat(search("guitar paris")).isEqualTo(database("ns", List.of("guitar paris"), 10).get(0))
        .extracting(ScoredId::id).containsExactlyInAnyOrder("r1", "r3", "r2");
    assertThat(search("lake")).extracting(ScoredId::id).containsExactly("r2");
    // a pruned session deletes r2 (a new epoch)
    b.forget("ns", "s2");
    assertThat(search("guitar lake")).isEqualTo(database("ns", List.of("guitar lake"), 10).get(0))
        .extracting(ScoredId::id).containsExactlyInAnyOrder("r1", "r3");
    // a forgotten namespace has no hits, and a record written after it is found
    b.forget("ns");
    assertThat(search("guitar")).isEmpty();
    StoreWrites.records(b, "ns", List.of(record("r9", "s1", "a guitar again", List.of(), List.of(), 0)));
    assertThat(search("guitar")).extracting(ScoredId::id).containsExactly("r9");
    assertThat(a.searchTexts("none", TextField.RECORDS, List.of("guitar"), 10)).containsExactly(List.of());
  }

  /** The records' search as a recall runs it: inside the namespace's read point. */
  private List<ScoredId> search(String query) {
    return a.readPoint("ns").call(() -> a.searchTexts("ns", TextField.RECORDS, List.of(query), 10).get(0));
  }

  @Test
  void withLocalRowsOffTheDatabaseSearches() {
    try (RecordStore off = CheckedRecordStore.of(new PostgresRecordStore(PostgresDatabase.open(counting,
        PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).localRows(false).build())))) {
      StoreWrites.records(b, "ns", List.of(record("r1", "s1", "Amy plays the guitar", List.of("Amy"), List.of(), 0)));
      counting.drain();
      assertThat(off.searchText("ns", TextField.RECORDS, "guitar", 10)).extracting(ScoredId::id).containsExactly("r1");
      assertThat(counting.drain()).anyMatch(sql -> sql.contains("ts_rank"));
    }
  }
}
