package dev.lychee.core.recall;

import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.read.RetrievalConfig;

/** The record-vector channel against the channel contract. */
class RecordVectorChannelConformanceTest extends dev.lychee.core.conformance.BaseRecallChannelTestCase {
  @Override
  protected RecallChannel newChannel(RecordStore store, VectorIndex vectors) {
    RetrievalConfig c = RetrievalConfig.defaults();
    return new RecordVectorChannel(store, vectors, c.budgets(), c.weights(), c.strategies());
  }
}
