package dev.lychee.store.postgres;

/**
 * The vector-index conformance suite on the HNSW path: every local copy is a graph, with a search
 * list wide enough ({@code ef} above every index size in the suite) that the suite's exact
 * expectations hold.
 */
class PostgresHnswVectorIndexTest extends PostgresVectorIndexTest {
  @Override
  protected PostgresStoreConfig.Builder config() {
    return super.config().exactSearchMaxVectors(0).hnswEf(2500).hnswEfConstruction(100);
  }
}
