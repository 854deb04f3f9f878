package dev.lychee.store.postgres;

/** {@link CrossInstanceVectorTest} with every local copy an HNSW graph fed in place. */
class CrossInstanceHnswVectorTest extends CrossInstanceVectorTest {
  @Override
  PostgresStoreConfig.Builder config() {
    return super.config().exactSearchMaxVectors(0).hnswEf(500);
  }
}
