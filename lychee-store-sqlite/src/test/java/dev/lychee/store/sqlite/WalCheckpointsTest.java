package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.spi.VectorIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WAL checkpoints run on the database's own thread after a write released the write lock, not
 * inside the commit that crossed the threshold (round eighteen): connections have SQLite's
 * automatic checkpoint off, and the WAL still does not grow without bound.
 */
class WalCheckpointsTest {
  @TempDir Path dir;

  @Test
  void connectionsLeaveCheckpointsToTheStore() {
    SqliteDatabase db = SqliteDatabase.open(dir.resolve("a.db"), SqliteStoreConfig.defaults());
    try {
      assertThat(pragma(db, "wal_autocheckpoint")).isZero();
      assertThat(pragma(db, "journal_size_limit")).isEqualTo(WalCheckpoints.limitBytes(1000, 4096))
          .isEqualTo(db.checkpoints().limitBytes());
    } finally {
      db.release();
    }
    SqliteDatabase own = SqliteDatabase.open(dir.resolve("b.db"),
        SqliteStoreConfig.builder().checkpointPages(0).build());
    try {
      assertThat(pragma(own, "wal_autocheckpoint")).isEqualTo(1000);
      assertThat(own.checkpoints()).isNull();
    } finally {
      own.release();
    }
  }

  @Test
  void theWalStaysBoundedAcrossManyWrites() throws Exception {
    Path file = dir.resolve("c.db");
    Path wal = file.resolveSibling("c.db-wal");
    SqliteDatabase db = SqliteDatabase.open(file,
        SqliteStoreConfig.builder().synchronousFull(false).checkpointPages(16).build());
    try (SqliteVectorIndex index = new SqliteVectorIndex(db)) {
      long limit = db.checkpoints().limitBytes();
      Random random = new Random(18);
      long largest = 0;
      // about 60 KB per write, 3 MB in all: 45 times the limit, written without a pause, so that
      // checkpoints outside the lock fall behind and the backstop under the lock bounds the WAL
      for (int i = 0; i < 50; i++) {
        index.upsert("ns", VectorIndex.RECORDS, vectors(random, i, 40));
        largest = Math.max(largest, Files.size(wal));
      }
      assertThat(largest).isLessThanOrEqualTo(WalCheckpoints.BACKSTOP * limit + 100_000);
      // once writes pause, a checkpoint outside the lock copies every frame, and the next write
      // starts the log again from its beginning, cutting the file to the limit
      awaitIdle(db);
      index.upsert("ns", VectorIndex.RECORDS, vectors(random, 98, 1));
      awaitIdle(db);
      index.upsert("ns", VectorIndex.RECORDS, vectors(random, 99, 1));
      awaitIdle(db);
      assertThat(db.checkpoints().runs()).isPositive();
      assertThat(Files.size(wal)).isLessThanOrEqualTo(limit);
      assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(50 * 40 + 2);
    } finally {
      db.release();
    }
  }

  @Test
  void aDueCheckpointIsQueuedOnceAndRunsOnItsOwnThread() throws Exception {
    Path wal = dir.resolve("x.db-wal");
    Files.write(wal, new byte[100]);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    String[] thread = new String[1];
    try (WalCheckpoints checkpoints = new WalCheckpoints(wal, 200, () -> {
      thread[0] = Thread.currentThread().getName();
      started.countDown();
      await(release);
      return true;
    })) {
      checkpoints.afterWrite(WalCheckpoints.UNREAD);
      assertThat(checkpoints.pending()).isFalse(); // at or under the limit: nothing due
      Files.write(wal, new byte[300]);
      checkpoints.afterWrite(WalCheckpoints.UNREAD);
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      checkpoints.afterWrite(WalCheckpoints.UNREAD); // one is running: no second one queued
      release.countDown();
      awaitIdle(checkpoints);
      assertThat(checkpoints.runs()).isEqualTo(1);
      assertThat(thread[0]).isEqualTo("lychee-sqlite-checkpoint");
    }
  }

  @Test
  void aCheckpointThatCouldNotCopyEveryFrameIsDueAgainAfterAsManyMoreFrames() throws Exception {
    Path wal = dir.resolve("y.db-wal");
    Files.write(wal, new byte[300]);
    try (WalCheckpoints checkpoints = new WalCheckpoints(wal, 200, () -> false)) {
      checkpoints.afterWrite(WalCheckpoints.UNREAD);
      awaitIdle(checkpoints);
      assertThat(checkpoints.runs()).isEqualTo(1);
      // it saw 300 bytes: due again over 300 + (200 - the 32-byte header)
      Files.write(wal, new byte[460]);
      checkpoints.afterWrite(WalCheckpoints.UNREAD);
      awaitIdle(checkpoints);
      assertThat(checkpoints.runs()).isEqualTo(1);
      Files.write(wal, new byte[470]);
      checkpoints.afterWrite(WalCheckpoints.UNREAD);
      awaitIdle(checkpoints);
      assertThat(checkpoints.runs()).isEqualTo(2);
    }
  }

  private static Map<String, float[]> vectors(Random random, int batch, int n) {
    Map<String, float[]> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      float[] v = new float[384];
      for (int j = 0; j < v.length; j++) {
        v[j] = random.nextFloat() - 0.5f;
      }
      out.put("r" + batch + "-" + i, v);
    }
    return out;
  }

  private static long pragma(SqliteDatabase db, String name) {
    return db.read(h -> h.createQuery("PRAGMA " + name).mapTo(Long.class).one());
  }

  private static void awaitIdle(SqliteDatabase db) throws InterruptedException {
    awaitIdle(db.checkpoints());
  }

  private static void awaitIdle(WalCheckpoints checkpoints) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (checkpoints.pending() && System.nanoTime() < end) {
      Thread.sleep(5);
    }
    assertThat(checkpoints.pending()).isFalse();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
