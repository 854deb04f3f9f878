/**
 * The durable embedded backend: {@link dev.lychee.store.sqlite.SqliteRecordStore} and
 * {@link dev.lychee.store.sqlite.SqliteVectorIndex} over one SQLite file
 * ({@link dev.lychee.store.sqlite.SqliteDatabase}: WAL, versioned migrations, FTS5), configured by
 * {@link dev.lychee.store.sqlite.SqliteStoreConfig} and bound by
 * {@link dev.lychee.store.sqlite.SqliteStoreModule}.
 */
package dev.lychee.store.sqlite;
