package dev.lychee.store.sqlite;

/**
 * The conformance suite on the HNSW path: every index is served by a graph, with a search list
 * wide enough ({@code ef} above every index size in the suite) that the graph search is exhaustive
 * and the suite's exact expectations hold.
 */
class SqliteHnswVectorIndexTest extends SqliteVectorIndexTest {
  @Override
  protected SqliteStoreConfig config() {
    return SqliteStoreConfig.builder().synchronousFull(false).exactSearchMaxVectors(0).hnswEf(2500)
        .hnswEfConstruction(100).build();
  }
}
