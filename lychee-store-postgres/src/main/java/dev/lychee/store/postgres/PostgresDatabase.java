package dev.lychee.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PostgreSQL database shared by {@link PostgresRecordStore}, {@link PostgresVectorIndex} and
 * {@link PostgresSegmentClaims}: a HikariCP pool whose connections use the configured schema, a {@link
 * Jdbi} over it, the schema migrations, and the transaction loop every call goes through.
 *
 * <p>Each call is one transaction. A transient failure (see {@link Failures#isTransient}) rolls it
 * back and runs the whole callback again, with backoff, until {@link
 * PostgresStoreConfig#retryFor()} has passed; then a {@link PostgresStoreException} names the
 * server and the cause. Callbacks must therefore be safe to run twice: a connection lost while the
 * commit was in flight may have committed the first run.
 *
 * <p>Users call {@link #acquire()} and {@link #release()}; the pool closes with the last user.
 */
public final class PostgresDatabase {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresDatabase.class);

  private final PostgresStoreConfig config;
  private final HikariDataSource pool;
  private final Jdbi jdbi;
  private final String target;
  private int users;
  private boolean closed;

  private PostgresDatabase(HikariConfig hc, String target, PostgresStoreConfig config, SchemaMigrations migrations) {
    this.config = config;
    this.target = target;
    hc.setSchema(config.schema());
    hc.setMaximumPoolSize(config.maxPoolSize());
    hc.setMinimumIdle(Math.min(2, config.maxPoolSize()));
    hc.setConnectionTimeout(Math.max(250, config.connectTimeout().toMillis()));
    hc.setPoolName("lychee-pg");
    // the server may be down when an instance starts; the first call reports it clearly instead
    hc.setInitializationFailTimeout(-1);
    hc.setAutoCommit(true);
    // the server's bounds on every statement and lock wait of this pool's sessions (§3.3): one
    // statement per new connection, for a URL and a DataSource alike; migrations lift them
    hc.setConnectionInitSql("SELECT set_config('statement_timeout', '" + config.statementTimeout().toMillis()
        + "', false), set_config('lock_timeout', '" + config.lockTimeout().toMillis() + "', false)");
    this.pool = new HikariDataSource(hc);
    this.jdbi = Jdbi.create(pool);
    try {
      retrying("migrate", () -> {
        migrations.apply(jdbi, config.schema());
        return null;
      });
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /**
   * Opens a pool on {@code jdbcUrl} ({@code jdbc:postgresql://host:port/db?user=..&password=..}, or
   * with libpq's user-info, {@code jdbc:postgresql://user:password@host:port/db}) and migrates the
   * schema.
   *
   * @throws IllegalArgumentException if the URL is no PostgreSQL JDBC URL (see {@link PostgresUrl#parse})
   * @throws PostgresStoreException if the server stays unreachable or holds a newer schema
   */
  public static PostgresDatabase open(String jdbcUrl, PostgresStoreConfig config) {
    return open(jdbcUrl, config, SchemaMigrations.standard());
  }

  /** Pools connections of a caller's {@link DataSource} and migrates the schema. */
  public static PostgresDatabase open(DataSource dataSource, PostgresStoreConfig config) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(config, "config");
    HikariConfig hc = new HikariConfig();
    hc.setDataSource(dataSource);
    return new PostgresDatabase(hc, "DataSource " + dataSource.getClass().getName(), config,
        SchemaMigrations.standard());
  }

  static PostgresDatabase open(String jdbcUrl, PostgresStoreConfig config, SchemaMigrations migrations) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(config, "config");
    // the user-info goes to the driver's properties, never into the URL HikariCP and the driver print
    PostgresUrl url = PostgresUrl.parse(jdbcUrl);
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(url.driverUrl());
    hc.setDriverClassName("org.postgresql.Driver");
    // the client's bound on a silent server or a dead link (§3.3); the URL's own parameters win
    if (!config.socketTimeout().isZero()) {
      hc.addDataSourceProperty("socketTimeout", String.valueOf((config.socketTimeout().toMillis() + 999) / 1000));
    }
    hc.addDataSourceProperty("tcpKeepAlive", String.valueOf(config.tcpKeepAlive()));
    if (url.user() != null) {
      hc.setUsername(url.user());
    }
    if (url.password() != null) {
      hc.setPassword(url.password());
    }
    return new PostgresDatabase(hc, describeUrl(jdbcUrl), config, migrations);
  }

  /** host:port/database of a JDBC URL, without user-info, password or other parameters. */
  static String describeUrl(String jdbcUrl) {
    String scheme = PostgresUrl.PREFIX + "//";
    if (!jdbcUrl.startsWith(scheme)) {
      return "a URL that is not a PostgreSQL JDBC URL";
    }
    String rest = jdbcUrl.substring(scheme.length());
    int query = rest.indexOf('?');
    String head = query < 0 ? rest : rest.substring(0, query);
    // after the last '@' of the part before the parameters, as PostgresUrl splits it
    head = head.substring(head.lastIndexOf('@') + 1);
    return "postgresql://" + (head.indexOf('/') < 0 ? head + "/" : head);
  }

  public PostgresStoreConfig config() {
    return config;
  }

  /** Where the pool points, for messages: host, port and database, never credentials. */
  public String target() {
    return target;
  }

  /** Registers one more user of this database. */
  public synchronized void acquire() {
    if (closed) {
      throw new IllegalStateException("database is closed");
    }
    users++;
  }

  /** Releases one user; the last one closes the pool. */
  public synchronized void release() {
    if (--users <= 0 && !closed) {
      closed = true;
      pool.close();
    }
  }

  /**
   * A write: one transaction at the server's default isolation (READ COMMITTED unless the server
   * was configured otherwise), retried whole on transient failures.
   */
  public <T> T write(HandleCallback<T, RuntimeException> callback) {
    return retrying("write", () -> jdbi.inTransaction(callback));
  }

  /**
   * A write of exactly one statement, in autocommit mode: the server runs the statement as a
   * transaction of its own and commits it before answering, so the write costs one round trip
   * instead of the statement's and a {@code COMMIT}'s. Retried whole on transient failures, like
   * {@link #write}; the statement must be idempotent for that, and must be the callback's only one
   * (a second statement would be a second transaction).
   */
  public <T> T writeStatement(HandleCallback<T, RuntimeException> callback) {
    return retrying("write", () -> jdbi.withHandle(callback));
  }

  /**
   * A read in autocommit mode, retried on transient failures. Each statement sees every commit made
   * before it started, which is all a READ COMMITTED transaction would add; skipping BEGIN/COMMIT
   * saves two round trips per read.
   */
  public <T> T read(HandleCallback<T, RuntimeException> callback) {
    return retrying("read", () -> jdbi.withHandle(callback));
  }

  /** A read whose statements all see one snapshot (REPEATABLE READ, READ ONLY). */
  public <T> T readSnapshot(HandleCallback<T, RuntimeException> callback) {
    return retrying("read", () -> jdbi.inTransaction(h -> {
      // the first statement of the transaction, so it sets the snapshot's isolation
      h.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      return callback.withHandle(h);
    }));
  }

  private interface Attempt<T> {
    T run();
  }

  private <T> T retrying(String what, Attempt<T> attempt) {
    long deadline = System.nanoTime() + config.retryFor().toNanos();
    long backoff = 50;
    int attempts = 0;
    while (true) {
      attempts++;
      try {
        return attempt.run();
      } catch (RuntimeException e) {
        if (Failures.isStatementTimeout(e)) {
          // not retried: the same statement would most likely run as long again
          throw new PostgresStoreException("PostgreSQL at " + target + ": a " + what + " ran past statementTimeout ("
              + config.statementTimeout().toMillis() + " ms) and was cancelled: " + Failures.rootMessage(e), e);
        }
        if (!Failures.isTransient(e)) {
          throw e;
        }
        if (System.nanoTime() + Duration.ofMillis(backoff).toNanos() > deadline) {
          throw new PostgresStoreException("PostgreSQL at " + target + " failed a " + what + " after "
              + attempts + " attempt(s) within " + config.retryFor().toSeconds() + " s: "
              + Failures.rootMessage(e), e);
        }
        LOG.warn("PostgreSQL at {}: {} failed ({}); retrying in {} ms", target, what, Failures.rootMessage(e), backoff);
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new PostgresStoreException("interrupted while waiting for PostgreSQL at " + target, e);
        }
        backoff = Math.min(1000, backoff * 2);
      }
    }
  }

}
