package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turn vectors are written without a WAL sync of their own: committed and searchable like any
 * other write, and every pooled connection is back at {@code synchronous=FULL} afterwards, so the
 * records, segments and turns written next are synced as before.
 */
class UnsyncedTurnVectorsTest {
  @TempDir Path dir;

  private static final float[] A = {1, 0, 0};
  private static final float[] B = {0, 1, 0};

  @Test
  void turnVectorsAreCommittedAndConnectionsStaySynced() {
    Path file = dir.resolve("v.db");
    SqliteDatabase db = SqliteDatabase.open(file, SqliteStoreConfig.defaults());
    try (SqliteVectorIndex index = new SqliteVectorIndex(db)) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      index.upsert("ns", VectorIndex.RECORDS, Map.of("r1", B));
      assertThat(index.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
      // a refused turn write leaves the connection synced too
      assertThatThrownBy(() -> index.upsert("ns", VectorIndex.TURNS, Map.of("s:1", new float[] {1, 0})))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(synchronousModes(db)).containsOnly(2); // FULL
    }
    try (SqliteVectorIndex again = SqliteVectorIndex.open(file, SqliteStoreConfig.defaults())) {
      assertThat(again.size("ns", VectorIndex.TURNS)).isEqualTo(1);
      assertThat(again.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
    }
  }

  /**
   * A segment's record and node vectors ({@code upsertAll}) are one unsynced transaction: all kinds
   * or none (a refused kind leaves the others unwritten), committed across a reopen, and the
   * connections are synced again afterwards.
   */
  @Test
  void upsertAllIsOneAtomicTransaction() {
    Path file = dir.resolve("all.db");
    SqliteDatabase db = SqliteDatabase.open(file, SqliteStoreConfig.defaults());
    try (SqliteVectorIndex index = new SqliteVectorIndex(db)) {
      index.upsertAll("ns", Map.of(VectorIndex.RECORDS, Map.of("r1", A), "node:tag", Map.of("t1", B)));
      assertThat(index.search("ns", "node:tag", B, 1, null)).extracting(ScoredId::id).containsExactly("t1");
      // the tag index holds dimension 3: a 2-dimensional tag vector refuses the whole call
      Map<String, Map<String, float[]>> mixed = new java.util.LinkedHashMap<>();
      mixed.put(VectorIndex.RECORDS, Map.of("r2", B));
      mixed.put("node:tag", Map.of("t2", new float[] {1, 0}));
      assertThatThrownBy(() -> index.upsertAll("ns", mixed)).isInstanceOf(IllegalArgumentException.class);
      assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
      assertThat(synchronousModes(db)).containsOnly(2); // FULL
    }
    try (SqliteVectorIndex again = SqliteVectorIndex.open(file, SqliteStoreConfig.defaults())) {
      assertThat(again.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
      assertThat(again.search("ns", VectorIndex.RECORDS, A, 1, null)).extracting(ScoredId::id).containsExactly("r1");
      assertThat(again.size("ns", "node:tag")).isEqualTo(1);
    }
  }

  /**
   * The records commit syncs the WAL after releasing the write lock ({@code writeSyncedAfterUnlock}):
   * committed across a reopen, a failed body leaves nothing, and the connections are synced again
   * afterwards; with {@code synchronousFull} off it is an ordinary write.
   */
  @Test
  void aWriteSyncedAfterUnlockIsCommittedAtomicallyAndLeavesConnectionsSynced() {
    for (boolean full : List.of(true, false)) {
      Path file = dir.resolve("after-unlock-" + full + ".db");
      SqliteStoreConfig config = SqliteStoreConfig.builder().synchronousFull(full).build();
      SqliteDatabase db = SqliteDatabase.open(file, config);
      db.acquire();
      Integer written = db.writeSyncedAfterUnlock(
          h -> h.execute("INSERT INTO turn_deletions(namespace, deletions) VALUES ('ns', 7)"));
      assertThat(written).isEqualTo(1);
      assertThatThrownBy(() -> db.writeSyncedAfterUnlock(h -> {
        h.execute("INSERT INTO turn_deletions(namespace, deletions) VALUES ('other', 1)");
        throw new IllegalStateException("refused");
      })).hasMessage("refused");
      assertThat(synchronousModes(db)).containsOnly(full ? 2 : 1); // FULL, or NORMAL when asked
      db.release();
      SqliteDatabase again = SqliteDatabase.open(file, config);
      again.acquire();
      List<String> rows = again.read(h -> h.createQuery("SELECT namespace || ':' || deletions FROM turn_deletions")
          .mapTo(String.class).list());
      assertThat(rows).containsExactly("ns:7");
      again.release();
    }
  }

  /** The synchronous mode of every pooled connection: all are taken at once, so each one is read. */
  private static List<Integer> synchronousModes(SqliteDatabase db) {
    List<Integer> modes = new ArrayList<>();
    db.jdbi().useHandle(h1 -> db.jdbi().useHandle(h2 -> db.jdbi().useHandle(h3 -> {
      for (var h : List.of(h1, h2, h3)) {
        modes.add(h.createQuery("PRAGMA synchronous").mapTo(Integer.class).one());
      }
    })));
    return modes;
  }
}
