package dev.lychee.core.conformance;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;

/**
 * The backend under test, as {@link BaseRecordStoreTestCase} hands it to the suites of the narrow
 * storage SPIs: how to open a fresh store, reopen one over the same files, and find its vectors.
 */
public interface StoreSubject {

  /** A fresh, empty store (the suites put {@code CheckedRecordStore} in front of it). */
  RecordStore newStore();

  /** True when {@link #reopen} is implemented. */
  boolean supportsReopen();

  /** Closes {@code store} (as {@link #newStore} returned it) and opens a new one over the same files. */
  RecordStore reopen(RecordStore store);

  /** The vector index that lives beside {@code store}. */
  VectorIndex companionIndex(RecordStore store);
}
