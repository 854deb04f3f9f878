package dev.lychee.store.sqlite;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Guice module that binds {@link RecordStore} to {@link SqliteRecordStore} (behind
 * {@link CheckedRecordStore}) and {@link VectorIndex}
 * to {@link SqliteVectorIndex}, both singletons over one shared {@link SqliteDatabase} (one file,
 * one Jdbi). List it after the core module to override the in-memory defaults.
 */
public final class SqliteStoreModule extends AbstractModule {
  private final Path file;
  private final SqliteStoreConfig config;

  /** The database at {@code file} with {@link SqliteStoreConfig#defaults()}. */
  public SqliteStoreModule(Path file) {
    this(file, SqliteStoreConfig.defaults());
  }

  /**
   * The database at {@code file} (created and migrated on first open if missing; its HNSW graphs
   * live beside it) with the settings of {@code config}. Nothing is opened until the injector asks;
   * the {@code Lychee} that owns the injector closes the database.
   */
  public SqliteStoreModule(Path file, SqliteStoreConfig config) {
    this.file = Objects.requireNonNull(file, "file");
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  protected void configure() {
    bind(VectorIndex.class).to(SqliteVectorIndex.class);
    bind(SqliteRecordStore.class).in(Singleton.class);
    bind(SqliteVectorIndex.class).in(Singleton.class);
  }

  /** The SQLite backend behind the argument checks of core. */
  @Provides
  @Singleton
  RecordStore recordStore(SqliteRecordStore store) {
    return CheckedRecordStore.of(store);
  }

  @Provides
  @Singleton
  SqliteDatabase database() {
    return SqliteDatabase.open(file, config);
  }

  @Provides
  @Singleton
  SqliteStoreConfig config() {
    return config;
  }
}
