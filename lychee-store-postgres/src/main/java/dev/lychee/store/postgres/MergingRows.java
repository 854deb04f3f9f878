package dev.lychee.store.postgres;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The rows of one namespaced table whose stored id, when put again, is merged rather than replaced
 * (records and evidence nodes): insert-or-merge in batches, rewrites, look-ups by id, deletes.
 *
 * <p>A put of many rows costs a fixed number of round trips, not a few per row: one locking read
 * of the ids already stored, one batch of inserts, one batch of rewrites. That matters because a
 * segment yields dozens of nodes and every statement is a round trip to a server that may be busy.
 *
 * @param <T> the row type
 */
final class MergingRows<T> {
  private static final int IN_CHUNK = 1000;

  private record Key(String namespace, String id) {}

  private final String table;
  private final String columns;
  private final String insertSql;
  private final String updateSql;
  private final String updateLockedSql;
  private final RowMapper<T> mapper;
  private final BiConsumer<SqlStatement<?>, T> binder;
  private final Function<T, String> namespaceOf;
  private final Function<T, String> idOf;
  private final BinaryOperator<T> merge;

  /**
   * @param columns the stored columns, {@code namespace} and {@code id} among them
   * @param values the named parameters for {@code columns}, in the same order
   * @param extraColumn a computed column written beside them ({@code null}: none)
   * @param extraValue its SQL expression over the bound parameters
   * @param binder binds every parameter of {@code values} (and {@code extraValue}) for one row
   * @param merge the stored row merged with a newer one of the same id
   */
  MergingRows(String table, String columns, String values, String extraColumn, String extraValue,
      RowMapper<T> mapper, BiConsumer<SqlStatement<?>, T> binder, Function<T, String> namespaceOf,
      Function<T, String> idOf, BinaryOperator<T> merge) {
    this.table = table;
    this.columns = columns;
    String cols = extraColumn == null ? columns : columns + ", " + extraColumn;
    String vals = extraValue == null ? values : values + ", " + extraValue;
    this.insertSql = "INSERT INTO " + table + "(" + cols + ") VALUES (" + vals + ") ON CONFLICT (namespace, id) DO NOTHING";
    this.updateSql = "UPDATE " + table + " SET (" + cols + ") = (" + vals + ") WHERE namespace = :namespace AND id = :id";
    this.updateLockedSql = "UPDATE " + table + " SET (" + cols + ") = (" + vals + ") WHERE ctid = CAST(:row_ctid AS tid)"
        + " AND namespace = :namespace AND id = :id";
    this.mapper = mapper;
    this.binder = binder;
    this.namespaceOf = namespaceOf;
    this.idOf = idOf;
    this.merge = merge;
  }

  /**
   * Inserts the rows, merging each into the stored row of the same id (and repeats of one id in
   * {@code rows} into each other, in order). Stored rows are locked in id order, so two writers
   * merging into the same stored rows wait for each other rather than deadlock; a deadlock over
   * ids neither had stored yet is a transient failure, and the caller's transaction is retried.
   */
  void putAll(Handle h, List<T> rows) {
    Map<Key, List<T>> wanted = new LinkedHashMap<>();
    for (T r : rows) {
      wanted.computeIfAbsent(key(r), k -> new ArrayList<>()).add(r);
    }
    if (wanted.isEmpty()) {
      return;
    }
    Map<Key, Locked<T>> stored = lockStored(h, wanted.keySet());
    List<T> fresh = new ArrayList<>();
    List<Locked<T>> changed = new ArrayList<>();
    for (Map.Entry<Key, List<T>> e : wanted.entrySet()) {
      Locked<T> locked = stored.get(e.getKey());
      T old = locked == null ? null : locked.row();
      // merged in the order given, as one put per row would
      T merged = old;
      for (T r : e.getValue()) {
        merged = merged == null ? r : merge.apply(merged, r);
      }
      if (old == null) {
        fresh.add(merged);
      } else if (!merged.equals(old)) {
        changed.add(new Locked<>(merged, locked.ctid()));
      }
    }
    int[] inserted = batch(h, insertSql, fresh);
    for (int i = 0; i < fresh.size(); i++) {
      if (inserted[i] != 1) {
        // another writer inserted the id after the locking read: merge into its row instead
        putOne(h, fresh.get(i));
      }
    }
    rewriteLocked(h, changed);
  }

  /** A stored row as the locking read found it, with where it lies ({@code ctid}). */
  private record Locked<T>(T row, String ctid) {}

  /**
   * Rewrites rows this transaction holds locked, each found by its {@code ctid}: a row locked {@code
   * FOR UPDATE} cannot be updated, deleted or moved by anyone else until commit, and this
   * transaction changes it nowhere else first, so the ctid the locking read returned still names it
   * (namespace and id are checked too). Why not by (namespace, id): until the table has planner
   * statistics, which a fresh database gets only from autovacuum's first analyse a minute or more
   * in, the server planned that update on the {@code *_by_change} index, scanning every row of the
   * namespace for each merged row: 1.1 ms of server time per merged node in a LoCoMo ingest, the
   * largest server cost of the ingest (round nineteen, docs/measurements.md §6). A ctid is one
   * tuple look-up whatever the statistics. A row not found so (never seen; kept as a guard) is
   * rewritten by its id.
   */
  private void rewriteLocked(Handle h, List<Locked<T>> rows) {
    if (rows.isEmpty()) {
      return;
    }
    PreparedBatch batch = h.prepareBatch(updateLockedSql);
    for (Locked<T> r : rows) {
      bind(batch, r.row()).bind("row_ctid", r.ctid()).add();
    }
    int[] updated = batch.execute();
    for (int i = 0; i < rows.size(); i++) {
      if (updated[i] != 1) {
        rewrite(h, rows.get(i).row());
      }
    }
  }

  /** Inserts one row, or merges it into the stored one under its row lock. */
  private void putOne(Handle h, T row) {
    int inserted = bind(h.createUpdate(insertSql), row).execute();
    if (inserted == 1) {
      return;
    }
    T old = h.createQuery("SELECT " + columns + " FROM " + table + " WHERE namespace = :ns AND id = :id FOR UPDATE")
        .bind("ns", namespaceOf.apply(row)).bind("id", idOf.apply(row)).map(mapper).one();
    T merged = merge.apply(old, row);
    if (!merged.equals(old)) {
      rewrite(h, merged);
    }
  }

  private Map<Key, Locked<T>> lockStored(Handle h, Collection<Key> keys) {
    Map<String, List<String>> idsByNamespace = new LinkedHashMap<>();
    for (Key k : keys) {
      idsByNamespace.computeIfAbsent(k.namespace(), n -> new ArrayList<>()).add(k.id());
    }
    Map<Key, Locked<T>> out = new HashMap<>();
    idsByNamespace.forEach((ns, ids) -> {
      for (int i = 0; i < ids.size(); i += IN_CHUNK) {
        h.createQuery("SELECT CAST(ctid AS text) AS row_ctid, " + columns + " FROM " + table
                + " WHERE namespace = :ns AND id = ANY(:ids) ORDER BY id FOR UPDATE")
            .bind("ns", ns).bindArray("ids", String.class, ids.subList(i, Math.min(ids.size(), i + IN_CHUNK)))
            .map((rs, ctx) -> new Locked<>(mapper.map(rs, ctx), rs.getString("row_ctid")))
            .forEach(r -> out.put(key(r.row()), r));
      }
    });
    return out;
  }

  private int[] batch(Handle h, String sql, List<T> rows) {
    if (rows.isEmpty()) {
      return new int[0];
    }
    PreparedBatch batch = h.prepareBatch(sql);
    for (T r : rows) {
      bind(batch, r).add();
    }
    return batch.execute();
  }

  private <S extends SqlStatement<S>> S bind(S st, T row) {
    binder.accept(st, row);
    return st;
  }

  private Key key(T row) {
    return new Key(Objects.requireNonNull(namespaceOf.apply(row)), Objects.requireNonNull(idOf.apply(row)));
  }

  /** Rewrites a stored row in place, keeping its insertion order. */
  void rewrite(Handle h, T row) {
    bind(h.createUpdate(updateSql), row).execute();
  }

  List<T> byIds(Handle h, String ns, List<String> ids) {
    List<T> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += IN_CHUNK) {
      h.createQuery("SELECT " + columns + " FROM " + table + " WHERE namespace = :ns AND id = ANY(:ids)")
          .bind("ns", ns).bindArray("ids", String.class, ids.subList(i, Math.min(ids.size(), i + IN_CHUNK)))
          .map(mapper).forEach(out::add);
    }
    return out;
  }

  /**
   * The namespace's rows whose change number (migration 4) lies in {@code (after, upTo]}, or all of
   * them when {@code after} is negative; in no particular order. Streamed in batches, so call it
   * inside a transaction ({@link PostgresDatabase#readSnapshot}) when the namespace is large.
   */
  List<T> changed(Handle h, String ns, long after, long upTo) {
    return changed(h, ns, after, upTo, "", mapper);
  }

  /**
   * {@link #changed(Handle, String, long, long)} with {@code extra} select items after the stored
   * columns (empty, or starting with a comma), each row mapped by {@code rowMapper}.
   */
  <R> List<R> changed(Handle h, String ns, long after, long upTo, String extra, RowMapper<R> rowMapper) {
    String sql = "SELECT " + columns + extra + " FROM " + table + " WHERE namespace = :ns"
        + (after < 0 ? "" : " AND change_seq > :after AND change_seq <= :upTo");
    Query q = h.createQuery(sql).bind("ns", ns).setFetchSize(2000);
    if (after >= 0) {
      q.bind("after", after).bind("upTo", upTo);
    }
    return q.map(rowMapper).list();
  }

  /** Ids of the namespace's rows in insertion order. */
  List<String> ids(Handle h, String ns) {
    return h.createQuery("SELECT id FROM " + table + " WHERE namespace = :ns ORDER BY seq").bind("ns", ns)
        .mapTo(String.class).list();
  }

  /** Rows of the namespace in insertion order. */
  List<T> all(Handle h, String ns) {
    return h.createQuery("SELECT " + columns + " FROM " + table + " WHERE namespace = :ns ORDER BY seq")
        .bind("ns", ns).map(mapper).list();
  }

  /** Rows of the namespace, each locked for this transaction, in insertion order. */
  List<T> allForUpdate(Handle h, String ns) {
    return h.createQuery("SELECT " + columns + " FROM " + table + " WHERE namespace = :ns ORDER BY seq FOR UPDATE")
        .bind("ns", ns).map(mapper).list();
  }

  void delete(Handle h, String ns, Collection<String> ids) {
    List<String> all = List.copyOf(ids);
    for (int i = 0; i < all.size(); i += IN_CHUNK) {
      h.createUpdate("DELETE FROM " + table + " WHERE namespace = :ns AND id = ANY(:ids)").bind("ns", ns)
          .bindArray("ids", String.class, all.subList(i, Math.min(all.size(), i + IN_CHUNK))).execute();
    }
  }

  void deleteAll(Handle h, String ns) {
    h.createUpdate("DELETE FROM " + table + " WHERE namespace = :ns").bind("ns", ns).execute();
  }
}
