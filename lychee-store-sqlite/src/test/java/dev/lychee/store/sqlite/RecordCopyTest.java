package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A searched namespace's records are read by id from the live records its lexical search keeps (no
 * statement on the record table) while they were caught up at the file's present data version,
 * exactly as the table answers: merged records with their merged evidence, the order of the ids
 * asked for, repeats and unknown ids dropped. Records behind the file (merged here, or rewritten and
 * deleted by another process's forgetting, since the last search) are not used. The expected
 * answers come from a second store over the same file that never searches.
 */
class RecordCopyTest {
  private static final int SESSIONS = 3;
  private static final int TEXTS = 20;

  @TempDir Path dir;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private SqliteRecordStore plain;
  private AtomicInteger recordStatements;

  @BeforeEach
  void open() {
    Path file = dir.resolve("r.db");
    db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    plain = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()));
    recordStatements = TableStatements.count(db, "records");
    for (String ns : List.of("a", "b")) {
      for (int s = 0; s < SESSIONS; s++) {
        store.appendTurns(ns, "s" + s, List.of(turn(ns, "s" + s, 0, "jam"), turn(ns, "s" + s, 1, "more jam")));
        // the same texts in every session: their records merge, citing a turn of each session
        List<MemoryRecord> records = new ArrayList<>();
        for (int i = 0; i < TEXTS; i++) {
          records.add(record(ns, "Fact " + i + " about jam" + (i % 4 == 0 ? " in session " + s : ""),
              TurnRef.of("s" + s, i % 2)));
        }
        StoreWrites.records(store, ns, records);
      }
    }
  }

  @AfterEach
  void close() {
    store.close();
    plain.close();
  }

  private List<String> ids(String ns) {
    return plain.records(ns).stream().map(MemoryRecord::id).toList();
  }

  /** Random reads by id, each checked against the plain store. */
  private void readsMatchTheTable(String ns, long seed) {
    Random rnd = new Random(seed);
    List<String> known = new ArrayList<>(ids(ns));
    known.add("no-such-record");
    recordStatements.set(0); // count the reads below, not the writes and searches before them
    for (int round = 0; round < 60; round++) {
      List<String> ids = new ArrayList<>();
      int n = 1 + rnd.nextInt(10);
      for (int i = 0; i < n; i++) {
        ids.add(known.get(rnd.nextInt(known.size()))); // repeats likely
      }
      assertThat(store.records(ns, ids)).as("%s", ids).isEqualTo(plain.records(ns, ids));
    }
  }

  @Test
  void aSearchedNamespacesRecordsComeFromItsCopyAsTheTableHasThem() {
    store.searchText("a", TextField.RECORDS, "jam", 5);
    readsMatchTheTable("a", 1);
    assertThat(recordStatements).as("statements on the record table for a searched namespace").hasValue(0);
    readsMatchTheTable("b", 2);
    assertThat(recordStatements).as("a namespace never searched is read from the table").hasPositiveValue();
  }

  @Test
  void recordsBehindTheFileAreNotUsed() {
    store.searchText("a", TextField.RECORDS, "jam", 5);
    // a merge here after the search: the read sees the merged evidence
    MemoryRecord merged = record("a", "Fact 1 about jam", TurnRef.of("s2", 0));
    StoreWrites.records(store, "a", List.of(merged));
    assertThat(store.records("a", List.of(merged.id()))).isEqualTo(plain.records("a", List.of(merged.id())))
        .singleElement().satisfies(r -> assertThat(r.evidence()).contains(TurnRef.of("s2", 0)));

    // another process forgets a session (records of it alone deleted, merged ones rewritten)
    store.searchText("a", TextField.RECORDS, "jam", 5);
    List<String> before = ids("a");
    plain.forget("a", "s0");
    assertThat(ids("a")).hasSizeLessThan(before.size());
    assertThat(store.records("a", before)).isEqualTo(plain.records("a", before))
        .allSatisfy(r -> assertThat(r.evidence()).noneMatch(t -> t.session().equals("s0")));

    // the next search catches the records up, and reads come from them again
    store.searchText("a", TextField.RECORDS, "jam", 5);
    readsMatchTheTable("a", 3);
    assertThat(recordStatements).hasValue(0);
  }
}
