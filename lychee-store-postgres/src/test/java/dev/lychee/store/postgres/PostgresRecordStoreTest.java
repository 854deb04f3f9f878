package dev.lychee.store.postgres;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseRecordStoreTestCase;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/** The record-store conformance suite, each test in a schema of its own on the test server. */
class PostgresRecordStoreTest extends BaseRecordStoreTestCase {
  private final Map<RecordStore, PostgresStoreConfig> configs = new IdentityHashMap<>();
  private final List<VectorIndex> companions = new ArrayList<>();

  static PostgresStoreConfig config(String schema) {
    return PostgresStoreConfig.builder().schema(schema).maxPoolSize(10).build();
  }

  @Override
  protected RecordStore newStore() {
    PostgresStoreConfig config = config(TestPostgres.freshSchema());
    RecordStore s = PostgresRecordStore.open(TestPostgres.get().url(), config);
    configs.put(s, config);
    return s;
  }

  /** Vectors beside the rows, in the same database and pool, as the Guice module wires them. */
  @Override
  protected VectorIndex companionIndex(RecordStore store) {
    VectorIndex v = new PostgresVectorIndex(TestPostgres.databaseOf(store));
    companions.add(v);
    return v;
  }

  @AfterEach
  void closeCompanions() {
    companions.forEach(VectorIndex::close);
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }

  @Override
  protected RecordStore reopen(RecordStore store) {
    PostgresStoreConfig config = configs.remove(store);
    store.close();
    RecordStore s = PostgresRecordStore.open(TestPostgres.get().url(), config);
    configs.put(s, config);
    return s;
  }
}
