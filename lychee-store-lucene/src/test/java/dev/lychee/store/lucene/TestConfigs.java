package dev.lychee.store.lucene;

/** Settings for tests that are not about durability against OS crashes. */
final class TestConfigs {
  /** Defaults without fsync: commits stay atomic and survive process death, and tests run fast. */
  static final LuceneStoreConfig FAST = LuceneStoreConfig.builder().fsync(false).build();

  private TestConfigs() {}
}
