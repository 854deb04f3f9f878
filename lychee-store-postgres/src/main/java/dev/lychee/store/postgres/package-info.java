/**
 * The PostgreSQL backend: a {@link dev.lychee.api.spi.RecordStore} and a {@link
 * dev.lychee.api.spi.VectorIndex} that many application instances share, wired by {@link
 * dev.lychee.store.postgres.PostgresStoreModule}.
 */
package dev.lychee.store.postgres;
