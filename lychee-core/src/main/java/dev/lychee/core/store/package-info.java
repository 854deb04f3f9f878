/**
 * What every record store shares, and the in-memory one: {@link dev.lychee.core.store.CheckedRecordStore}
 * (the argument contract, checked once in front of any backend),
 * {@link dev.lychee.core.store.MergeOnPut} (how records and nodes whose id is stored merge and keep
 * their place), {@link dev.lychee.core.store.RecordSearchText}, the {@code forget(namespace, session)}
 * cascade ({@link dev.lychee.core.store.SessionPruning}), the per-version read cache
 * ({@link dev.lychee.core.store.VersionedCache}), private file creation
 * ({@link dev.lychee.core.store.PrivateFiles}), the word tokenizer shared with durable stores
 * ({@link dev.lychee.core.store.TextTokenizer}), and {@link dev.lychee.core.store.InMemoryRecordStore}
 * with the small BM25 index it searches with ({@link dev.lychee.core.store.Bm25Index}).
 */
package dev.lychee.core.store;
