package dev.lychee.store.lucene;

import org.junit.jupiter.api.Tag;

/**
 * The shared VectorIndex contract with every search forced through the HNSW graph
 * ({@code exactSearchMaxVectors = 0}), so that filtering, score mapping and exactness on small
 * indexes are checked on the approximate path too. Tagged slow: run it with
 * {@code -Dgroups=slow -DexcludedGroups=none}.
 */
@Tag("slow")
class LuceneVectorIndexGraphTest extends LuceneVectorIndexTest {
  @Override
  protected LuceneStoreConfig config() {
    return TestConfigs.FAST.toBuilder().exactSearchMaxVectors(0).build();
  }
}
