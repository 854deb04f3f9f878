/**
 * Record storage held in memory: {@link dev.lychee.core.store.InMemoryRecordStore}, the small
 * BM25 index it searches with ({@link dev.lychee.core.store.Bm25Index}, reusable on its own), the
 * word tokenizer shared with durable stores ({@link dev.lychee.core.store.TextTokenizer}), and the
 * {@code forget(namespace, session)} cascade every store applies
 * ({@link dev.lychee.core.store.SessionPruning}).
 */
package dev.lychee.core.store;
