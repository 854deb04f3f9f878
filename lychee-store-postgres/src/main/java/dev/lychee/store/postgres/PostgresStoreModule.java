package dev.lychee.store.postgres;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.SegmentClaims;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Guice module that binds {@link RecordStore} to {@link PostgresRecordStore}, {@link VectorIndex}
 * to {@link PostgresVectorIndex} and {@link SegmentClaims} to {@link PostgresSegmentClaims}, all
 * singletons over one {@link PostgresDatabase} (one pool). Passed to {@code Lychee.create}, it
 * overrides the in-memory defaults; with the claims in the database, the background encoders of
 * every instance share one durable queue of PENDING segments.
 */
public final class PostgresStoreModule extends AbstractModule {
  private final String jdbcUrl;
  private final DataSource dataSource;
  private final PostgresStoreConfig config;

  /** The database at a JDBC URL ({@code jdbc:postgresql://host:port/db?user=..&password=..}). */
  public PostgresStoreModule(String jdbcUrl) {
    this(jdbcUrl, PostgresStoreConfig.defaults());
  }

  /**
   * The database at a JDBC URL ({@code jdbc:postgresql://host:port/db?user=..&password=..}) with the
   * schema, pool and retry settings of {@code config}. The pool opens, and the schema is migrated,
   * when the injector first asks; the {@code Lychee} that owns the injector closes the pool.
   */
  public PostgresStoreModule(String jdbcUrl, PostgresStoreConfig config) {
    this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    this.dataSource = null;
    this.config = Objects.requireNonNull(config, "config");
  }

  /** The database behind a caller's {@link DataSource} (pooled again by HikariCP). */
  public PostgresStoreModule(DataSource dataSource) {
    this(dataSource, PostgresStoreConfig.defaults());
  }

  /**
   * The database behind a caller's {@link DataSource} (pooled again by HikariCP) with the settings
   * of {@code config}; the schema is migrated when the injector first asks. The {@code Lychee} that
   * owns the injector closes its own pool; the {@code DataSource} stays the caller's to close.
   */
  public PostgresStoreModule(DataSource dataSource, PostgresStoreConfig config) {
    this.jdbcUrl = null;
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  protected void configure() {
    bind(VectorIndex.class).to(PostgresVectorIndex.class);
    bind(PostgresRecordStore.class).in(Singleton.class);
    bind(PostgresVectorIndex.class).in(Singleton.class);
    bind(SegmentClaims.class).to(PostgresSegmentClaims.class);
    bind(PostgresSegmentClaims.class).in(Singleton.class);
  }

  /** The PostgreSQL backend behind the argument checks of core, as every store module binds it. */
  @Provides
  @Singleton
  RecordStore recordStore(PostgresRecordStore store) {
    return CheckedRecordStore.of(store);
  }

  @Provides
  @Singleton
  PostgresDatabase database() {
    return jdbcUrl != null ? PostgresDatabase.open(jdbcUrl, config) : PostgresDatabase.open(dataSource, config);
  }

  @Provides
  @Singleton
  PostgresStoreConfig config() {
    return config;
  }

  /** Where the module points, for messages: host, port and database, never credentials. */
  public String target() {
    return jdbcUrl != null ? PostgresDatabase.describeUrl(jdbcUrl) : "DataSource " + dataSource.getClass().getName();
  }

  @Override
  public String toString() {
    return "PostgresStoreModule[" + target() + "]";
  }
}
