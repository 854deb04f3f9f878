package dev.lychee.store.postgres;

import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseVectorIndexTestCase;
import java.util.IdentityHashMap;
import java.util.Map;

/** The vector-index conformance suite on the exact path (every index stays below the HNSW limit). */
class PostgresVectorIndexTest extends BaseVectorIndexTestCase {
  private final Map<VectorIndex, PostgresStoreConfig> configs = new IdentityHashMap<>();

  protected PostgresStoreConfig.Builder config() {
    return PostgresStoreConfig.builder().maxPoolSize(10);
  }

  @Override
  protected VectorIndex newIndex() {
    PostgresStoreConfig config = config().schema(TestPostgres.freshSchema()).build();
    VectorIndex v = PostgresVectorIndex.open(TestPostgres.get().url(), config);
    configs.put(v, config);
    return v;
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected VectorIndex reopen(VectorIndex index) {
    PostgresStoreConfig config = configs.remove(index);
    index.close();
    VectorIndex v = PostgresVectorIndex.open(TestPostgres.get().url(), config);
    configs.put(v, config);
    return v;
  }
}
