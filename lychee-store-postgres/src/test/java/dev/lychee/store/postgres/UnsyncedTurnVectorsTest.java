package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Turn vectors commit without waiting for the WAL flush and are searchable from another instance at
 * once; {@link RoundTripsTest} checks that the setting holds in their own transaction only.
 */
class UnsyncedTurnVectorsTest {
  private static final float[] A = {1, 0, 0};

  @Test
  void unsyncedTurnVectorsAreVisibleToAnotherInstanceAtOnce() {
    PostgresStoreConfig config = PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).build();
    try (PostgresVectorIndex index = PostgresVectorIndex.open(TestPostgres.get().url(), config);
        PostgresVectorIndex other = PostgresVectorIndex.open(TestPostgres.get().url(), config)) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      assertThat(other.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
    }
  }
}
