package dev.lychee.core.recall;

import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.read.RetrievalConfig;

/** The temporal-range channel against the channel contract. */
class TemporalRangeChannelConformanceTest extends dev.lychee.core.conformance.BaseRecallChannelTestCase {
  @Override
  protected RecallChannel newChannel(RecordStore store, VectorIndex vectors) {
    RetrievalConfig c = RetrievalConfig.defaults();
    return new TemporalRangeChannel(store, c.budgets(), c.weights());
  }
}
