package dev.lychee.core.conformance;

import dev.lychee.api.Forgotten;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.vector.ExactVectorIndex;
import org.junit.jupiter.api.Nested;

/**
 * Conformance of a {@link RecordStore} backend: every suite of the narrow storage SPIs, run
 * against it. An implementation extends this class once and supplies {@link #newStore()}; durable
 * stores also override {@link #supportsReopen()} and {@link #reopen(RecordStore)} so that the
 * suites check that a reopened store keeps everything.
 *
 * <p>The suites are {@link BaseTurnLogTestCase}, {@link BaseSegmentLogTestCase},
 * {@link BaseRecordLogTestCase}, {@link BaseNodeLogTestCase}, {@link BaseTextSearchTestCase},
 * {@link BaseForgetTestCase} and {@link BaseStoreContractTestCase}; each runs here as a nested
 * class. They put {@code CheckedRecordStore} in front of the backend, as the store modules do, so
 * a backend that only stores passes.
 */
public abstract class BaseRecordStoreTestCase {

  /** A fresh, empty store. */
  protected abstract RecordStore newStore();

  /** True when {@link #reopen} is implemented. */
  protected boolean supportsReopen() {
    return false;
  }

  /**
   * Closes {@code store} (an object {@link #newStore()} or this method returned) and opens a new
   * store over the same files.
   *
   * @throws UnsupportedOperationException unless {@link #supportsReopen()}
   */
  protected RecordStore reopen(RecordStore store) {
    throw new UnsupportedOperationException("this store cannot be reopened");
  }

  /**
   * The vector index that lives beside the store, used to check that {@link Forgotten} lists let a
   * caller drop exactly the right vectors. Defaults to a fresh {@link ExactVectorIndex}.
   */
  protected VectorIndex companionIndex(RecordStore store) {
    return new ExactVectorIndex();
  }

  private final StoreSubject subject = new StoreSubject() {
    @Override
    public RecordStore newStore() {
      return BaseRecordStoreTestCase.this.newStore();
    }

    @Override
    public boolean supportsReopen() {
      return BaseRecordStoreTestCase.this.supportsReopen();
    }

    @Override
    public RecordStore reopen(RecordStore store) {
      return BaseRecordStoreTestCase.this.reopen(store);
    }

    @Override
    public VectorIndex companionIndex(RecordStore store) {
      return BaseRecordStoreTestCase.this.companionIndex(store);
    }
  };

  @Nested
  class TurnLog extends BaseTurnLogTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }

  @Nested
  class SegmentLog extends BaseSegmentLogTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }

  @Nested
  class RecordLog extends BaseRecordLogTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }

  @Nested
  class NodeLog extends BaseNodeLogTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }

  @Nested
  class TextSearch extends BaseTextSearchTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }

  @Nested
  class Forget extends BaseForgetTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }

  @Nested
  class Contract extends BaseStoreContractTestCase {
    @Override
    protected StoreSubject subject() {
      return subject;
    }
  }
}
