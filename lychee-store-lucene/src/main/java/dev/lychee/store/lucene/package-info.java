/**
 * Durable {@link dev.lychee.api.spi.RecordStore} and {@link dev.lychee.api.spi.VectorIndex} on
 * Apache Lucene 9: {@link dev.lychee.store.lucene.LuceneRecordStore} (stored JSON documents, BM25
 * text fields with English analysis), {@link dev.lychee.store.lucene.LuceneVectorIndex} (HNSW
 * {@code KnnFloatVectorField}s, exact scan for small indexes), their settings
 * {@link dev.lychee.store.lucene.LuceneStoreConfig}, and the Guice
 * {@link dev.lychee.store.lucene.LuceneStoreModule}. Every write call is one Lucene commit.
 */
package dev.lychee.store.lucene;
