package dev.lychee.store.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * The rows of one namespaced table whose stored id, when put again, is merged rather than replaced
 * (records and evidence nodes): insert-or-merge in batches, rewrites, look-ups by id, deletes.
 *
 * <p>A put of many rows costs a fixed number of round trips, not a few per row: one for the locking
 * read of the ids already stored, one for the inserts and rewrites, and the puts of several tables
 * share them ({@link Put}). That matters because a segment yields dozens of nodes and every
 * statement is a round trip to a server that may be busy.
 *
 * @param <T> the row type
 */
final class MergingRows<T> {
  private static final int IN_CHUNK = 1000;

  private record Key(String namespace, String id) {}

  private final String table;
  private final String columns;
  private final List<String> written;
  private final String values;
  private final String rewriteValues;
  private final Rewriter<T> rewriter;
  private final String insertSql;
  private final String updateSql;
  private final String lockSql;
  private final RowMapper<T> mapper;
  private final BiConsumer<Params, T> binder;
  private final Function<T, String> namespaceOf;
  private final Function<T, String> idOf;
  private final BinaryOperator<T> merge;

  /**
   * @param columns the stored columns, {@code namespace} and {@code id} among them
   * @param values the named parameters for {@code columns}, in the same order
   * @param rewriter how {@link #rewriteAll} writes a merged row over its stored row ({@code null}:
   *     whole, with {@code values} and {@code binder}, as an insert writes it)
   * @param extraColumn a computed column written beside them ({@code null}: none)
   * @param extraValue its SQL expression over the bound parameters
   * @param binder binds every parameter of {@code values} (and {@code extraValue}) for one row
   * @param merge the stored row merged with a newer one of the same id
   */
  MergingRows(String table, String columns, String values, Rewriter<T> rewriter, String extraColumn, String extraValue,
      RowMapper<T> mapper, BiConsumer<Params, T> binder, Function<T, String> namespaceOf,
      Function<T, String> idOf, BinaryOperator<T> merge) {
    this.table = table;
    this.columns = columns;
    String cols = extraColumn == null ? columns : columns + ", " + extraColumn;
    this.written = List.of(cols.split(",\\s*"));
    this.values = extraValue == null ? values : values + ", " + extraValue;
    this.rewriter = rewriter;
    String rewrite = rewriter == null ? values : rewriter.values();
    this.rewriteValues = extraValue == null ? rewrite : rewrite + ", " + extraValue;
    this.insertSql = "INSERT INTO " + table + "(" + cols + ") VALUES (" + this.values + ")"
        + " ON CONFLICT (namespace, id) DO NOTHING";
    this.updateSql = "UPDATE " + table + " SET (" + cols + ") = (" + this.values + ") WHERE namespace = :namespace AND id = :id";
    this.lockSql = "SELECT CAST(s.ctid AS text) AS row_ctid, s." + String.join(", s.", columns.split(",\\s*"))
        + " FROM unnest(CAST(:ids AS text[])) AS k(id) JOIN " + table + " AS s ON s.namespace = :ns AND s.id = k.id"
        + " ORDER BY s.id FOR UPDATE OF s";
    this.mapper = mapper;
    this.binder = binder;
    this.namespaceOf = namespaceOf;
    this.idOf = idOf;
    this.merge = merge;
  }

  /**
   * Inserts the rows, merging each into the stored row of the same id (and repeats of one id in
   * {@code rows} into each other, in order): two round trips, the locking read and the writes
   * ({@link Put}).
   */
  void putAll(Handle h, List<T> rows) {
    putInTurn(h, List.of(put(rows)));
  }

  /** The puts of several tables, in the order given: one round trip more than there are puts. */
  static void putInTurn(Handle h, List<MergingRows<?>.Put> puts) {
    Pipeline lock = new Pipeline();
    puts.get(0).lock(lock);
    lock.run(h);
    writeInTurn(h, puts);
  }

  /**
   * The puts of several tables, the first one's locking read done: each put's writes go in one
   * round trip with the next put's locking read, and the last one's alone (the rare one-by-one
   * fallbacks after them). So each table's stored rows are locked after the writes of the tables
   * before it, as when each put ran alone: a writer holds the locks of a later table (the nodes
   * every segment merges into, such as the speakers') only from after its earlier tables' writes to
   * its commit, and two writers lock tables in the same order. Locking every table first saves a
   * round trip but kept those locks through the records' writes too: with the background encoder's
   * sessions encoding side by side, the nodes' locking read took 4 times the server time in an
   * async-append ingest (round twenty-one, docs/measurements.md §6).
   */
  static void writeInTurn(Handle h, List<MergingRows<?>.Put> puts) {
    for (int i = 0; i < puts.size(); i++) {
      Pipeline next = new Pipeline();
      puts.get(i).write(next);
      if (i + 1 < puts.size()) {
        puts.get(i + 1).lock(next);
      }
      next.run(h);
    }
    puts.forEach(p -> p.finish(h));
  }

  /** The locking read of {@link Put#lock}, its parameters {@code :ns} and {@code :ids}. */
  String lockSql() {
    return lockSql;
  }

  /** A put of {@code rows}, to run in pipelines with other statements. */
  Put put(List<T> rows) {
    return new Put(rows);
  }

  /**
   * Insert-or-merge of rows in three steps, each adding statements to a {@link Pipeline} that the
   * caller runs, so that the statements of two tables (and a claim's end) share round trips
   * ({@link #writeInTurn}; round twenty-one, docs/measurements.md §6): {@link #lock} reads the
   * stored rows of the ids locked, in id order, so two writers merging into the same stored rows
   * wait for each other rather than deadlock; {@link #write} merges and sends the new rows as one insert and the merged
   * ones as one rewrite per table; {@link #finish} handles, one by one, a row another writer
   * inserted after the locking read (merged into its row) and a rewrite that found no row. A
   * deadlock over ids neither writer had stored yet is a transient failure, and the caller's
   * transaction is retried.
   */
  final class Put {
    private final Map<Key, List<T>> wanted = new LinkedHashMap<>();
    private final List<Pipeline.Step<List<Locked<T>>>> locks = new ArrayList<>();
    private final List<Pipeline.Step<List<Key>>> inserts = new ArrayList<>();
    private final List<Pipeline.Step<List<Key>>> rewrites = new ArrayList<>();
    private final List<T> fresh = new ArrayList<>();
    private final List<Locked<T>> changed = new ArrayList<>();

    private Put(List<T> rows) {
      for (T r : rows) {
        wanted.computeIfAbsent(key(r), k -> new ArrayList<>()).add(r);
      }
    }

    /**
     * Adds the locking reads of the stored rows, one per namespace and chunk of ids. The ids are
     * joined as a set, not tested as {@code id = ANY(:ids)}: without planner statistics (a fresh
     * database until autovacuum's first analyse) and in the generic plan the driver's prepared
     * statement gets, the server scanned every row of the namespace and compared each with every id
     * in the array, 10.7 ms per segment's records and nodes in a LoCoMo ingest on a loaded machine
     * ({@code auto_explain}: 494 of 567 rows removed by that filter); the join hashes the ids
     * (round twenty-one, docs/measurements.md §6).
     */
    void lock(Pipeline p) {
      Map<String, List<String>> idsByNamespace = new LinkedHashMap<>();
      for (Key k : wanted.keySet()) {
        idsByNamespace.computeIfAbsent(k.namespace(), n -> new ArrayList<>()).add(k.id());
      }
      idsByNamespace.forEach((ns, ids) -> {
        for (int i = 0; i < ids.size(); i += IN_CHUNK) {
          List<String> chunk = ids.subList(i, Math.min(ids.size(), i + IN_CHUNK));
          locks.add(p.query(lockSql, b -> b.bind("ns", ns).bindArray("ids", chunk),
              (rs, ctx) -> new Locked<>(mapper.map(rs, ctx), rs.getString("row_ctid"),
                  rewriter == null ? null : rewriter.stored(rs))));
        }
      });
    }

    /** Merges with what the locking reads found and adds the inserts and rewrites. */
    void write(Pipeline p) {
      Map<Key, Locked<T>> stored = new HashMap<>();
      for (Pipeline.Step<List<Locked<T>>> step : locks) {
        step.get().forEach(l -> stored.put(key(l.row()), l));
      }
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
          changed.add(new Locked<>(merged, locked.ctid(), locked.stored()));
        }
      }
      if (!fresh.isEmpty()) {
        RowArrays a = new RowArrays();
        fresh.forEach(r -> binder.accept(a, r));
        inserts.add(p.query(insertAll(a), a::bindTo, KEY));
      }
      if (!changed.isEmpty()) {
        RowArrays a = new RowArrays();
        for (Locked<T> r : changed) {
          if (rewriter == null) {
            binder.accept(a, r.row());
          } else {
            rewriter.bind(a, r.row(), r.stored());
          }
          a.bind("row_ctid", r.ctid());
        }
        rewrites.add(p.query(rewriteAll(a), a::bindTo, KEY));
      }
    }

    /** The rows the pipelined writes missed, one by one; call after the writes' pipeline ran. */
    void finish(Handle h) {
      Set<Key> inserted = keys(inserts);
      for (T r : fresh) {
        if (!inserted.contains(key(r))) {
          // another writer inserted the id after the locking read: merge into its row instead
          putOne(h, r);
        }
      }
      Set<Key> rewritten = keys(rewrites);
      for (Locked<T> r : changed) {
        if (!rewritten.contains(key(r.row()))) {
          rewrite(h, r.row());
        }
      }
    }
  }

  private static final RowMapper<Key> KEY = (rs, ctx) -> new Key(rs.getString(1), rs.getString(2));

  private static Set<Key> keys(List<Pipeline.Step<List<Key>>> steps) {
    Set<Key> out = new HashSet<>();
    steps.forEach(s -> out.addAll(s.get()));
    return out;
  }

  /**
   * One insert of the rows bound in {@code a}, in their order, returning the keys it inserted. Its
   * text does not change with the number of rows (round twenty-two, {@link RowArrays}).
   */
  private String insertAll(RowArrays a) {
    return "INSERT INTO " + table + "(" + String.join(", ", written) + ") SELECT " + RowArrays.columnsOf(values, "v")
        + " FROM " + a.unnest("v") + " ORDER BY v.ord ON CONFLICT (namespace, id) DO NOTHING RETURNING namespace, id";
  }

  /**
   * One rewrite of the rows bound in {@code a} (with each one's {@code row_ctid}), rows this
   * transaction holds locked, each found by its {@code ctid} (a parameterised TID scan), returning
   * the keys it rewrote. A row locked {@code FOR UPDATE} cannot be updated, deleted or moved by
   * anyone else until commit, and this transaction changes it nowhere else first, so the ctid the
   * locking read returned still names it (namespace and id are checked too). Why not by (namespace,
   * id): until the table has planner statistics, which a fresh database gets only from autovacuum's
   * first analyse a minute or more in, the server planned that update on the {@code *_by_change}
   * index, scanning every row of the namespace for each merged row: 1.1 ms of server time per merged
   * node in a LoCoMo ingest, the largest server cost of the ingest (round nineteen,
   * docs/measurements.md §6). A ctid is one tuple look-up whatever the statistics. A row not found
   * so (never seen; kept as a guard) is rewritten by its id ({@link Put#finish}). Its text does not
   * change with the number of rows (round twenty-two, {@link RowArrays}).
   */
  String rewriteAll(RowArrays a) {
    return "UPDATE " + table + " AS t SET (" + String.join(", ", written) + ") = ("
        + RowArrays.columnsOf(rewriteValues, "v")
        + ") FROM " + a.unnest("v")
        + " WHERE t.ctid = CAST(v.row_ctid AS tid) AND t.namespace = v.namespace AND t.id = v.id"
        + " RETURNING t.namespace, t.id";
  }

  /**
   * A stored row as the locking read found it, with where it lies ({@code ctid}) and what the
   * table's {@link Rewriter} read of it ({@code null}: none).
   */
  private record Locked<T>(T row, String ctid, String stored) {}

  /**
   * How {@link #rewriteAll} writes a merged row over the stored row it was merged from, for a table
   * that writes less than the whole row then (nodes keep the stored start of their record ids;
   * {@link NodeTable}).
   *
   * @param <T> the row type
   */
  interface Rewriter<T> {
    /**
     * The written columns' values: the parameters {@link #bind} binds, in SQL expressions that may
     * read the stored row as {@code t}.
     */
    String values();

    /** What the rewrite needs of a stored row besides the row, from its locking read's result. */
    String stored(ResultSet rs) throws SQLException;

    /** Binds the rewrite of the stored row, of which {@link #stored} read {@code stored}, to {@code merged}. */
    void bind(Params p, T merged, String stored);
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

  private <S extends SqlStatement<S>> S bind(S st, T row) {
    binder.accept(Params.of(st), row);
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
