package dev.lychee.core.store;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.conformance.BaseRecordStoreTestCase;

class InMemoryRecordStoreTest extends BaseRecordStoreTestCase {
  @Override
  protected RecordStore newStore() {
    return new InMemoryRecordStore();
  }
}
