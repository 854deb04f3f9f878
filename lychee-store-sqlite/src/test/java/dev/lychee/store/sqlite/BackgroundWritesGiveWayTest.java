package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment's record and node vectors (and its records commit, which waits the same way) give way
 * to an append of this process whose turns are committed and whose turn vector is still to come:
 * they wait until that vector is written, or for their bound, before taking the write lock.
 */
class BackgroundWritesGiveWayTest {
  @TempDir Path dir;

  private static final float[] A = {1, 0, 0};

  private static RawTurn turn(int index) {
    return new RawTurn("ns", new TurnRef("s", index), Role.USER, "Ann", "hello " + index,
        LocalDateTime.of(2024, 1, 1, 10, 0));
  }

  /** A store and vector index on one database, with one append committed whose turn vector is due. */
  private record Appended(SqliteRecordStore store, SqliteVectorIndex index) implements AutoCloseable {
    static Appended open(Path file, int backgroundWriteWaitMillis) {
      SqliteStoreConfig config = SqliteStoreConfig.builder().backgroundWriteWaitMillis(backgroundWriteWaitMillis).build();
      SqliteDatabase db = SqliteDatabase.open(file, config);
      SqliteRecordStore store = new SqliteRecordStore(db);
      Appended opened = new Appended(store, new SqliteVectorIndex(db));
      store.appendTurns("ns", "s", next -> List.of(turn(next)));
      return opened;
    }

    @Override
    public void close() {
      try {
        index.close();
      } finally {
        store.close();
      }
    }
  }

  /** Runs a segment's vector write on its own thread, as the background encoder does. */
  private static Thread background(SqliteVectorIndex index) {
    Thread t = new Thread(() -> index.upsertAll("ns", Map.of(VectorIndex.RECORDS, Map.of("r1", A))));
    t.start();
    return t;
  }

  @Test
  void aBackgroundWriteWaitsForTheTurnVectorOfACommittedAppend() throws Exception {
    // a bound far above the test's own waits: the write below can only go on when the vector comes
    try (Appended a = Appended.open(dir.resolve("due.db"), 600_000)) {
      SqliteVectorIndex index = a.index();
      Thread encoder = background(index);
      encoder.join(500);
      assertThat(encoder.isAlive()).as("the record vectors waited for the turn vector").isTrue();
      assertThat(index.size("ns", VectorIndex.RECORDS)).isZero();
      index.upsert("ns", VectorIndex.TURNS, Map.of("episode:s:0", A));
      encoder.join(60_000);
      assertThat(encoder.isAlive()).isFalse();
      assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
      // nothing due any more: the next background write goes straight on
      Thread next = new Thread(() -> index.upsertAll("ns", Map.of(VectorIndex.RECORDS, Map.of("r2", A))));
      next.start();
      next.join(60_000);
      assertThat(next.isAlive()).isFalse();
    }
  }

  @Test
  void turnsWhoseVectorNeverComesHoldABackgroundWriteOnlyForItsBound() throws Exception {
    try (Appended a = Appended.open(dir.resolve("lapse.db"), 100)) {
      Thread encoder = background(a.index());
      encoder.join(60_000);
      assertThat(encoder.isAlive()).isFalse();
      assertThat(a.index().size("ns", VectorIndex.RECORDS)).isEqualTo(1);
    }
  }

  @Test
  void withTheWaitOffABackgroundWriteGoesStraightOn() throws Exception {
    try (Appended a = Appended.open(dir.resolve("off.db"), 0)) {
      a.index().upsertAll("ns", Map.of(VectorIndex.RECORDS, Map.of("r1", A)));
      assertThat(a.index().size("ns", VectorIndex.RECORDS)).isEqualTo(1);
    }
  }
}
