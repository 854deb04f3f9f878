package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Turn vectors commit without waiting for the WAL flush, and only their own transaction does:
 * they are searchable from another instance at once, and the next write is synchronous again.
 */
class UnsyncedTurnVectorsTest {
  private static final float[] A = {1, 0, 0};

  @Test
  void turnVectorsAreCommittedAndTheSettingStaysInTheirTransaction() {
    PostgresStoreConfig config = PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).build();
    PostgresDatabase db = PostgresDatabase.open(TestPostgres.get().url(), config);
    db.acquire();
    try (PostgresVectorIndex index = PostgresVectorIndex.open(TestPostgres.get().url(), config);
        PostgresVectorIndex other = PostgresVectorIndex.open(TestPostgres.get().url(), config)) {
      String inside = db.writeUnsynced(h -> h.createQuery("SHOW synchronous_commit").mapTo(String.class).one());
      assertThat(inside).isEqualTo("off");
      // one pooled connection: the next transaction runs on the same one
      String after = db.write(h -> h.createQuery("SHOW synchronous_commit").mapTo(String.class).one());
      assertThat(after).isEqualTo("on");
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      assertThat(other.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
    } finally {
      db.release();
    }
  }
}
