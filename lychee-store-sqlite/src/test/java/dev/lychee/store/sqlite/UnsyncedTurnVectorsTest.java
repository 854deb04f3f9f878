package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turn vectors are written without a WAL sync of their own: committed and searchable like any
 * other write, while the durable writes (records, segments, turns) sync the WAL themselves, after
 * releasing the database's write lock. Every WAL sync runs through a counting seam that also notes
 * whether the write lock was held at that moment.
 */
class UnsyncedTurnVectorsTest {
  @TempDir Path dir;

  private static final float[] A = {1, 0, 0};
  private static final float[] B = {0, 1, 0};

  /** The WAL syncs of one database: for each, whether the write lock was held while it ran. */
  private static final class Syncs implements Consumer<Runnable> {
    final List<Boolean> lockedAtSync = new ArrayList<>();
    SqliteDatabase db;

    @Override
    public void accept(Runnable sync) {
      if (db != null) {
        lockedAtSync.add(db.writeLocked());
      }
      sync.run();
    }

    SqliteDatabase open(Path file, SqliteStoreConfig config) {
      db = SqliteDatabase.open(file, config, this);
      return db;
    }
  }

  @Test
  void turnVectorsAreCommittedWithoutASyncOfTheirOwn() {
    Path file = dir.resolve("v.db");
    Syncs syncs = new Syncs();
    SqliteDatabase db = syncs.open(file, SqliteStoreConfig.defaults());
    try (SqliteVectorIndex index = new SqliteVectorIndex(db)) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      assertThat(syncs.lockedAtSync).isEmpty();
      index.upsert("ns", VectorIndex.RECORDS, Map.of("r1", B));
      assertThat(syncs.lockedAtSync).containsExactly(false);
      assertThat(index.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
      // a refused turn write leaves the connection synced too
      assertThatThrownBy(() -> index.upsert("ns", VectorIndex.TURNS, Map.of("s:1", new float[] {1, 0})))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(syncs.lockedAtSync).hasSize(1);
    }
    try (SqliteVectorIndex again = SqliteVectorIndex.open(file, SqliteStoreConfig.defaults())) {
      assertThat(again.size("ns", VectorIndex.TURNS)).isEqualTo(1);
      assertThat(again.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
    }
  }

  /**
   * A segment's record and node vectors ({@code upsertAll}) are one unsynced transaction: all kinds
   * or none (a refused kind leaves the others unwritten), committed across a reopen, with no sync
   * of its own.
   */
  @Test
  void upsertAllIsOneAtomicTransaction() {
    Path file = dir.resolve("all.db");
    Syncs syncs = new Syncs();
    SqliteDatabase db = syncs.open(file, SqliteStoreConfig.defaults());
    try (SqliteVectorIndex index = new SqliteVectorIndex(db)) {
      index.upsertAll("ns", Map.of(VectorIndex.RECORDS, Map.of("r1", A), "node:tag", Map.of("t1", B)));
      assertThat(index.search("ns", "node:tag", B, 1, null)).extracting(ScoredId::id).containsExactly("t1");
      // the tag index holds dimension 3: a 2-dimensional tag vector refuses the whole call
      Map<String, Map<String, float[]>> mixed = new java.util.LinkedHashMap<>();
      mixed.put(VectorIndex.RECORDS, Map.of("r2", B));
      mixed.put("node:tag", Map.of("t2", new float[] {1, 0}));
      assertThatThrownBy(() -> index.upsertAll("ns", mixed)).isInstanceOf(IllegalArgumentException.class);
      assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
      assertThat(syncs.lockedAtSync).isEmpty();
    }
    try (SqliteVectorIndex again = SqliteVectorIndex.open(file, SqliteStoreConfig.defaults())) {
      assertThat(again.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
      assertThat(again.search("ns", VectorIndex.RECORDS, A, 1, null)).extracting(ScoredId::id).containsExactly("r1");
      assertThat(again.size("ns", "node:tag")).isEqualTo(1);
    }
  }

  /**
   * A durable write ({@code write}: the turns, segments and records commits) syncs the WAL once,
   * after releasing the write lock, so no other writer waits through its sync: committed across a
   * reopen, a failed body leaves nothing and syncs nothing; every connection commits at {@code
   * NORMAL}; with {@code synchronousFull} off nothing is synced.
   */
  @Test
  void aDurableWriteSyncsTheWalAfterReleasingTheLock() {
    for (boolean full : List.of(true, false)) {
      Path file = dir.resolve("after-unlock-" + full + ".db");
      SqliteStoreConfig config = SqliteStoreConfig.builder().synchronousFull(full).build();
      Syncs syncs = new Syncs();
      SqliteDatabase db = syncs.open(file, config);
      db.acquire();
      Integer written = db.write(h -> h.execute("INSERT INTO turn_deletions(namespace, deletions) VALUES ('ns', 7)"));
      assertThat(written).isEqualTo(1);
      assertThat(syncs.lockedAtSync).isEqualTo(full ? List.of(false) : List.of());
      assertThatThrownBy(() -> db.write(h -> {
        h.execute("INSERT INTO turn_deletions(namespace, deletions) VALUES ('other', 1)");
        throw new IllegalStateException("refused");
      })).hasMessage("refused");
      assertThat(syncs.lockedAtSync).hasSize(full ? 1 : 0);
      assertThat(synchronousModes(db)).containsOnly(1); // NORMAL: the WAL is synced by the write itself
      db.release();
      SqliteDatabase again = SqliteDatabase.open(file, config);
      again.acquire();
      List<String> rows = again.read(h -> h.createQuery("SELECT namespace || ':' || deletions FROM turn_deletions")
          .mapTo(String.class).list());
      assertThat(rows).containsExactly("ns:7");
      again.release();
    }
  }

  /** An appended turn is synced once, after the lock; its vector is not synced at all. */
  @Test
  void anAppendSyncsItsTurnOutsideTheLockAndNotItsVector() {
    Syncs syncs = new Syncs();
    SqliteDatabase db = syncs.open(dir.resolve("append.db"), SqliteStoreConfig.defaults());
    SqliteRecordStore store = new SqliteRecordStore(db);
    try (SqliteVectorIndex index = new SqliteVectorIndex(db)) {
      store.appendTurns("ns", "s", next -> List.of(new dev.lychee.api.RawTurn("ns", new dev.lychee.api.TurnRef("s", next),
          dev.lychee.api.Role.USER, "Ann", "hello", java.time.LocalDateTime.of(2024, 1, 1, 10, 0))));
      assertThat(syncs.lockedAtSync).containsExactly(false);
      index.upsert("ns", VectorIndex.TURNS, Map.of("episode:s:0", A));
      assertThat(syncs.lockedAtSync).containsExactly(false);
    } finally {
      store.close();
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
