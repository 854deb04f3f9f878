package dev.lychee.core.recall;

import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.read.RetrievalConfig;

/** The lexical channel over records alone against the channel contract. */
class LexicalRecordsOnlyConformanceTest extends dev.lychee.core.conformance.BaseRecallChannelTestCase {
  @Override
  protected RecallChannel newChannel(RecordStore store, VectorIndex vectors) {
    RetrievalConfig c = RetrievalConfig.defaults();
    return new LexicalChannel(store, c.budgets(), c.weights(), java.util.EnumSet.of(dev.lychee.api.spi.TextField.RECORDS));
  }
}
