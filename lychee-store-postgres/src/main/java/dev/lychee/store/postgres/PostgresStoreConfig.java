package dev.lychee.store.postgres;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Settings of the PostgreSQL store and vector index. Immutable; build with {@link #builder()},
 * every value is checked when built. Holds no credentials: those travel in the JDBC URL or the
 * {@code DataSource}, which this class never prints.
 */
public final class PostgresStoreConfig {
  private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final String schema;
  private final int maxPoolSize;
  private final Duration connectTimeout;
  private final Duration retryFor;
  private final int exactSearchMaxVectors;
  private final int hnswM;
  private final int hnswEfConstruction;
  private final int hnswEf;
  private final Duration claimWait;
  private final boolean localRows;
  private final int localRowsMaxNamespaces;
  private final Duration socketTimeout;
  private final Duration statementTimeout;
  private final Duration lockTimeout;
  private final boolean tcpKeepAlive;

  private PostgresStoreConfig(Builder b) {
    if (b.schema == null || !SCHEMA.matcher(b.schema).matches()) {
      throw new IllegalArgumentException("schema must be a lower-case SQL identifier"
          + " ([a-z_][a-z0-9_]*, at most 63 characters): '" + b.schema + "'");
    }
    if (b.maxPoolSize < 1) {
      throw new IllegalArgumentException("maxPoolSize must be >= 1: " + b.maxPoolSize);
    }
    requirePositive(b.connectTimeout, "connectTimeout");
    Objects.requireNonNull(b.retryFor, "retryFor");
    if (b.retryFor.isNegative()) {
      throw new IllegalArgumentException("retryFor must be >= 0: " + b.retryFor);
    }
    if (b.exactSearchMaxVectors < 0) {
      throw new IllegalArgumentException("exactSearchMaxVectors must be >= 0: " + b.exactSearchMaxVectors);
    }
    if (b.hnswM < 2) {
      throw new IllegalArgumentException("hnswM must be >= 2: " + b.hnswM);
    }
    if (b.hnswEfConstruction < 1 || b.hnswEf < 1) {
      throw new IllegalArgumentException("hnswEfConstruction and hnswEf must be >= 1");
    }
    this.schema = b.schema;
    this.maxPoolSize = b.maxPoolSize;
    this.connectTimeout = b.connectTimeout;
    this.retryFor = b.retryFor;
    this.exactSearchMaxVectors = b.exactSearchMaxVectors;
    this.hnswM = b.hnswM;
    this.hnswEfConstruction = b.hnswEfConstruction;
    this.hnswEf = b.hnswEf;
    Objects.requireNonNull(b.claimWait, "claimWait");
    if (b.claimWait.isNegative()) {
      throw new IllegalArgumentException("claimWait must be >= 0: " + b.claimWait);
    }
    this.claimWait = b.claimWait;
    this.localRows = b.localRows;
    if (b.localRowsMaxNamespaces < 1) {
      throw new IllegalArgumentException("localRowsMaxNamespaces must be >= 1 (namespaces whose records and"
          + " nodes one instance keeps in memory; set localRows(false) to keep none): " + b.localRowsMaxNamespaces);
    }
    this.localRowsMaxNamespaces = b.localRowsMaxNamespaces;
    requireServerMillis(b.statementTimeout, "statementTimeout");
    requireServerMillis(b.lockTimeout, "lockTimeout");
    Objects.requireNonNull(b.socketTimeout, "socketTimeout");
    if (b.socketTimeout.isNegative() || b.socketTimeout.toSeconds() >= Integer.MAX_VALUE) {
      throw new IllegalArgumentException("socketTimeout must be >= 0 (0: none) and below 2^31 s: " + b.socketTimeout);
    }
    if (!b.socketTimeout.isZero() && !b.statementTimeout.isZero() && b.socketTimeout.compareTo(b.statementTimeout) <= 0) {
      throw new IllegalArgumentException("socketTimeout (" + b.socketTimeout + ") must be longer than statementTimeout ("
          + b.statementTimeout + "): the server sends nothing while a statement runs, so a shorter socket timeout"
          + " would cut statements the server is still allowed to finish");
    }
    this.socketTimeout = b.socketTimeout;
    this.statementTimeout = b.statementTimeout;
    this.lockTimeout = b.lockTimeout;
    this.tcpKeepAlive = b.tcpKeepAlive;
  }

  /** A server-side timeout: PostgreSQL takes whole milliseconds up to 2^31 - 1, 0 meaning none. */
  private static void requireServerMillis(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(name + " must be >= 0 (0: none) and at most " + Integer.MAX_VALUE + " ms: " + d);
    }
    if (!d.isZero() && d.toMillis() == 0) {
      throw new IllegalArgumentException(name + " must be 0 (none) or at least 1 ms: " + d);
    }
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be > 0: " + d);
    }
  }

  /** The documented defaults. */
  public static PostgresStoreConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The schema that holds every table (default {@code lychee}); created when missing. */
  public String schema() {
    return schema;
  }

  /** Connections of this instance's pool (default 8). */
  public int maxPoolSize() {
    return maxPoolSize;
  }

  /** How long taking a connection may wait (default 10 s). */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /**
   * How long a call keeps retrying after a transient failure (lost connection, server restart,
   * serialisation conflict) before it fails (default 30 s; zero: no retry).
   */
  public Duration retryFor() {
    return retryFor;
  }

  /** Indexes up to this many vectors are scanned exactly; above it, HNSW (default 20000). */
  public int exactSearchMaxVectors() {
    return exactSearchMaxVectors;
  }

  /** HNSW links per node (default 16). */
  public int hnswM() {
    return hnswM;
  }

  /** HNSW candidate list while inserting (default 200). */
  public int hnswEfConstruction() {
    return hnswEfConstruction;
  }

  /** HNSW candidate list while searching; the search uses {@code max(ef, k)} (default 100). */
  public int hnswEf() {
    return hnswEf;
  }

  /**
   * How long claiming a given segment waits while another instance encodes an earlier segment of
   * the same session (default 30 s; zero: do not wait). Encoding follows session order, so the
   * segment could not be encoded before that anyway; waiting lets the instance that closed it
   * encode it instead of leaving it to the next {@code encodePending}. A background encoder thread
   * waiting here also delays {@code Lychee.close()} by up to this long.
   */
  public Duration claimWait() {
    return claimWait;
  }

  /**
   * Whether records and evidence nodes read by id come from a copy of their namespace kept in this
   * instance's memory, caught up with every instance's writes by one head read per call (default
   * true; docs/defaults.md §3.3). The copy holds every record and node of each namespace the
   * instance has read by id, and the records' full-text postings, from which the records' search is
   * answered (round nineteen); off, every such read and search is a statement to the database.
   */
  public boolean localRows() {
    return localRows;
  }

  /**
   * How many namespaces' local rows (see {@link #localRows()}) one instance holds at most (default
   * 32; docs/defaults.md §3.3), and as many namespaces' turn copies (the turns' full-text postings,
   * with the turns themselves when local rows are on). Reading one more drops the least recently
   * read namespace's copy, and that namespace's next read loads it afresh (all its records and
   * nodes, or all its turns).
   * Memory scales with the namespaces' sizes, not their count: a LoCoMo conversation's copy is about
   * 1.5 MB, twenty of them in one namespace about 29 MB.
   */
  public int localRowsMaxNamespaces() {
    return localRowsMaxNamespaces;
  }

  /**
   * How long the client waits for any answer from the server on a connection in use (default 120 s;
   * zero: forever, the driver's default; docs/defaults.md §3.3). A server that froze, or a link that
   * died without a reset (a failover, a NAT that dropped the connection), otherwise blocks the
   * call until the kernel gives up, about 15 minutes, or for good on an idle link. Past it the
   * connection counts as lost: the call is retried for {@link #retryFor()} on a fresh one, then
   * fails with a {@link PostgresStoreException}. It must be longer than {@link #statementTimeout()}
   * (the server is silent while a statement runs). The driver counts whole seconds: it is rounded
   * up. Only for a JDBC URL (where a {@code socketTimeout} parameter of the URL wins); a {@code
   * DataSource} keeps its own ({@code PGSimpleDataSource.setSocketTimeout}). Migrations run without it.
   */
  public Duration socketTimeout() {
    return socketTimeout;
  }

  /**
   * The server's bound on one statement ({@code statement_timeout}, default 60 s; zero: none;
   * docs/defaults.md §3.3), lock waits included. A statement past it fails with a {@link
   * PostgresStoreException} naming this setting; it is not retried. Migrations run without it.
   */
  public Duration statementTimeout() {
    return statementTimeout;
  }

  /**
   * The server's bound on one wait for a row or table lock ({@code lock_timeout}, default 30 s;
   * zero: none; docs/defaults.md §3.3): a transaction of another instance that holds a session's
   * row and stopped (its host froze) otherwise holds every append to that session. A lock wait
   * past it is retried like a lost connection, for {@link #retryFor()}, then fails with a {@link
   * PostgresStoreException}. Migrations run without it (an instance waits for another's migration).
   */
  public Duration lockTimeout() {
    return lockTimeout;
  }

  /**
   * Whether the driver turns on TCP keepalive for its connections (default true; docs/defaults.md
   * §3.3), so the operating system finds a dead idle link and the pool drops it. Only for a JDBC
   * URL, like {@link #socketTimeout()}.
   */
  public boolean tcpKeepAlive() {
    return tcpKeepAlive;
  }

  @Override
  public String toString() {
    return "PostgresStoreConfig[schema=" + schema + ", maxPoolSize=" + maxPoolSize + ", connectTimeout="
        + connectTimeout + ", retryFor=" + retryFor + ", exactSearchMaxVectors=" + exactSearchMaxVectors
        + ", hnswM=" + hnswM + ", hnswEfConstruction=" + hnswEfConstruction + ", hnswEf=" + hnswEf
        + ", claimWait=" + claimWait + ", localRows=" + localRows
        + ", localRowsMaxNamespaces=" + localRowsMaxNamespaces + ", socketTimeout=" + socketTimeout
        + ", statementTimeout=" + statementTimeout + ", lockTimeout=" + lockTimeout + ", tcpKeepAlive=" + tcpKeepAlive + "]";
  }

  /** Builder of {@link PostgresStoreConfig}; every setter has the documented default. */
  public static final class Builder {
    private String schema = "lychee";
    private int maxPoolSize = 8;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration retryFor = Duration.ofSeconds(30);
    private int exactSearchMaxVectors = 20_000;
    private int hnswM = 16;
    private int hnswEfConstruction = 200;
    private int hnswEf = 100;
    private Duration claimWait = Duration.ofSeconds(30);
    private boolean localRows = true;
    private int localRowsMaxNamespaces = 32;
    private Duration socketTimeout = Duration.ofSeconds(120);
    private Duration statementTimeout = Duration.ofSeconds(60);
    private Duration lockTimeout = Duration.ofSeconds(30);
    private boolean tcpKeepAlive = true;

    private Builder() {}

    public Builder schema(String v) {
      this.schema = v;
      return this;
    }

    public Builder maxPoolSize(int v) {
      this.maxPoolSize = v;
      return this;
    }

    public Builder connectTimeout(Duration v) {
      this.connectTimeout = v;
      return this;
    }

    public Builder retryFor(Duration v) {
      this.retryFor = v;
      return this;
    }

    public Builder exactSearchMaxVectors(int v) {
      this.exactSearchMaxVectors = v;
      return this;
    }

    public Builder hnswM(int v) {
      this.hnswM = v;
      return this;
    }

    public Builder hnswEfConstruction(int v) {
      this.hnswEfConstruction = v;
      return this;
    }

    public Builder hnswEf(int v) {
      this.hnswEf = v;
      return this;
    }

    public Builder claimWait(Duration v) {
      this.claimWait = v;
      return this;
    }

    public Builder localRows(boolean v) {
      this.localRows = v;
      return this;
    }

    /** At least 1; see {@link PostgresStoreConfig#localRowsMaxNamespaces()}. */
    public Builder localRowsMaxNamespaces(int v) {
      this.localRowsMaxNamespaces = v;
      return this;
    }

    /** At least 0 (none), longer than the statement timeout; see {@link PostgresStoreConfig#socketTimeout()}. */
    public Builder socketTimeout(Duration v) {
      this.socketTimeout = v;
      return this;
    }

    /** At least 0 (none); see {@link PostgresStoreConfig#statementTimeout()}. */
    public Builder statementTimeout(Duration v) {
      this.statementTimeout = v;
      return this;
    }

    /** At least 0 (none); see {@link PostgresStoreConfig#lockTimeout()}. */
    public Builder lockTimeout(Duration v) {
      this.lockTimeout = v;
      return this;
    }

    /** See {@link PostgresStoreConfig#tcpKeepAlive()}. */
    public Builder tcpKeepAlive(boolean v) {
      this.tcpKeepAlive = v;
      return this;
    }

    /** @throws IllegalArgumentException naming the first bad value */
    public PostgresStoreConfig build() {
      return new PostgresStoreConfig(this);
    }
  }
}
