package dev.lychee.core.store;

import dev.lychee.api.spi.ReadPoint;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link ReadPoint} of one namespace on one database whose reads share one value (what a store
 * would otherwise ask the database before every read: its heads, its file version), read once, by
 * the first read inside the point that asks for it. A store subclasses it with how that value is
 * read ({@link #read}) and, in each read, asks {@link #entered} for it before asking the database.
 *
 * <p>Which point a thread is inside is kept per thread: {@link #call} sets it and puts the previous
 * one back when it returns or throws. Only the innermost point counts, and only for its own kind,
 * database and namespace; every other read asks the database as it would outside. Why shared here:
 * the SQLite and PostgreSQL stores each had this bookkeeping written out (round twenty-two).
 *
 * @param <V> what the point's reads share, never null
 */
public abstract class SharedReadPoint<V> implements ReadPoint {
  private static final ThreadLocal<SharedReadPoint<?>> ENTERED = new ThreadLocal<>();

  private final Object database;
  private final String namespace;
  /** Read by the point's first read that asks, under this object's monitor; then never changed. */
  private V value;

  /**
   * @param database the database the point reads, compared by identity
   * @param namespace the namespace whose reads the point answers
   */
  protected SharedReadPoint(Object database, String namespace) {
    this.database = Objects.requireNonNull(database, "database");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
  }

  /** Reads the shared value from the database; called at most once per point, never null. */
  protected abstract V read();

  @Override
  public final <T> T call(Supplier<T> reads) {
    Objects.requireNonNull(reads, "reads");
    SharedReadPoint<?> outer = ENTERED.get();
    ENTERED.set(this);
    try {
      return reads.get();
    } finally {
      if (outer == null) {
        ENTERED.remove();
      } else {
        ENTERED.set(outer);
      }
    }
  }

  /**
   * The shared value of the point the calling thread is inside, read now if this is its first read
   * that asks; null when the innermost point the thread entered is not a {@code kind} of {@code
   * database} and {@code namespace}, or there is none (the caller then asks the database itself).
   */
  protected static <V, P extends SharedReadPoint<V>> V entered(Class<P> kind, Object database, String namespace) {
    SharedReadPoint<?> point = ENTERED.get();
    if (!kind.isInstance(point) || point.database != database || !point.namespace.equals(namespace)) {
      return null;
    }
    SharedReadPoint<V> entered = kind.cast(point);
    return entered.value();
  }

  /** The value; the first caller reads it, a thread arriving meanwhile waits for that read. */
  private synchronized V value() {
    if (value == null) {
      value = Objects.requireNonNull(read(), "a read point's shared value");
    }
    return value;
  }
}
