package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
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
 * A searched namespace's turns are answered from the copy its lexical search keeps (no statement
 * on the turn table) while that copy was read at the file's present data version, and exactly as
 * the table answers them: the same turns in the same order, by ids and by range. A copy behind the
 * file (a turn appended here or a session forgotten by another process since the last search) is
 * not used. The expected answers come from a second store over the same file that never searches,
 * so it reads every turn with SQL.
 */
class TurnCopyTest {
  private static final int SESSIONS = 4;
  private static final int TURNS = 30;

  @TempDir Path dir;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private SqliteRecordStore plain;
  private AtomicInteger turnStatements;

  @BeforeEach
  void open() {
    Path file = dir.resolve("t.db");
    db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    plain = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()));
    turnStatements = TableStatements.count(db, "turns");
    for (String ns : List.of("a", "b")) {
      for (int s = 0; s < SESSIONS; s++) {
        List<RawTurn> turns = new ArrayList<>();
        for (int i = 0; i < TURNS; i++) {
          turns.add(turn(ns, "s" + s, i, "turn " + i + " of session " + s + " about jam"));
        }
        store.appendTurns(ns, "s" + s, turns);
      }
    }
  }

  @AfterEach
  void close() {
    store.close();
    plain.close();
  }

  private List<TurnRef> someRefs(Random rnd) {
    List<TurnRef> refs = new ArrayList<>();
    int n = 1 + rnd.nextInt(12);
    for (int i = 0; i < n; i++) {
      // unknown sessions and indices beyond the last turn included, repeats likely
      refs.add(TurnRef.of("s" + rnd.nextInt(SESSIONS + 1), rnd.nextInt(TURNS + 5)));
    }
    return refs;
  }

  /** Random reads by id and by range, each checked against the plain store; returns how many. */
  private int readsMatchTheTable(String ns, long seed) {
    Random rnd = new Random(seed);
    int reads = 0;
    for (int round = 0; round < 60; round++) {
      List<TurnRef> refs = someRefs(rnd);
      assertThat(store.turns(ns, refs)).as("%s", refs).isEqualTo(plain.turns(ns, refs));
      String session = "s" + rnd.nextInt(SESSIONS + 1);
      int from = rnd.nextInt(TURNS + 3) - 2;
      int to = from + rnd.nextInt(8) - 1; // now and then below from: no turns
      assertThat(store.turns(ns, session, from, to)).as("%s %d..%d", session, from, to)
          .isEqualTo(plain.turns(ns, session, from, to));
      assertThat(store.turns(ns, session)).isEqualTo(plain.turns(ns, session));
      reads += 3;
    }
    return reads;
  }

  @Test
  void aSearchedNamespacesTurnsComeFromItsCopyAsTheTableHasThem() {
    store.searchText("a", TextField.TURNS, "jam", 5);
    turnStatements.set(0);

    readsMatchTheTable("a", 1);

    assertThat(turnStatements).as("statements on the turn table for a searched namespace").hasValue(0);
    readsMatchTheTable("b", 2);
    assertThat(turnStatements).as("a namespace never searched is read from the table").hasPositiveValue();
  }

  @Test
  void aCopyBehindTheFileIsNotUsed() {
    store.searchText("a", TextField.TURNS, "jam", 5);
    store.appendTurns("a", "s0", List.of(turn("a", "s0", TURNS, "a later turn about jam")));
    TurnRef later = TurnRef.of("s0", TURNS);
    assertThat(store.turns("a", List.of(later))).extracting(RawTurn::ref).containsExactly(later);
    assertThat(store.turns("a", "s0", TURNS - 1, TURNS + 1)).extracting(RawTurn::index)
        .containsExactly(TURNS - 1, TURNS);

    // another process forgets a session: this process's copy is behind the file until it searches
    store.searchText("a", TextField.TURNS, "jam", 5);
    plain.forget("a", "s1");
    assertThat(store.turns("a", List.of(TurnRef.of("s1", 0), later))).extracting(RawTurn::ref)
        .containsExactly(later);
    assertThat(store.turns("a", "s1", 0, TURNS)).isEmpty();
    readsMatchTheTable("a", 3);

    // the next search catches the copy up, and reads come from it again
    store.searchText("a", TextField.TURNS, "jam", 5);
    turnStatements.set(0);
    readsMatchTheTable("a", 4);
    assertThat(turnStatements).hasValue(0);
  }
}
