package dev.lychee.store.sqlite;

import dev.lychee.api.RawTurn;
import dev.lychee.api.TurnRef;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.VersionedCache;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.jdbi.v3.core.Handle;

/** The {@code turns} table and its FTS5 shadow {@code turns_fts}: the turn log of the SQLite store. */
final class TurnTable {
  private static final String NEXT_INDEX =
      "SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE namespace = ? AND session = ?";

  /** Turns by a JSON array of [session, index] pairs; a CROSS JOIN keeps json_each the outer loop. */
  private static final String BY_REFS = "SELECT t.namespace, t.session, t.idx, t.role, t.speaker, t.text, t.time"
      + " FROM json_each(?) j CROSS JOIN turns t ON t.namespace = ? AND t.session = json_extract(j.value, '$[0]')"
      + " AND t.idx = json_extract(j.value, '$[1]')";

  private final CachedReads reads;
  /** The searched namespaces' turns in memory, kept current by their searches. */
  private final TurnBm25 copies;

  TurnTable(CachedReads reads, TurnBm25 copies) {
    this.reads = reads;
    this.copies = copies;
  }

  List<RawTurn> append(String namespace, String session, List<RawTurn> turns) {
    return reads.db().write(h -> noted(namespace, insert(h, namespace, session, turns)));
  }

  /**
   * The next index is read inside the write transaction, which SQLite serialises across every
   * process sharing the file ({@code BEGIN IMMEDIATE}), so concurrent appenders never choose the
   * same index.
   */
  List<RawTurn> append(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    return reads.db().write(h -> {
      int next = h.createQuery(NEXT_INDEX).bind(0, namespace).bind(1, session).mapTo(Integer.class).one();
      return noted(namespace, insert(h, namespace, session, admit.apply(next)));
    });
  }

  /**
   * Turns about to commit get their vectors next: background writes give way until then ({@link
   * TurnVectorsDue}). Noted inside the transaction, so that a background writer queued for the
   * lock behind it sees the entry when it gets the lock; a transaction that then fails leaves an
   * entry that lapses.
   */
  private List<RawTurn> noted(String namespace, List<RawTurn> added) {
    if (!added.isEmpty()) {
      reads.db().turnVectorsDue().turnsCommitted(namespace);
    }
    return added;
  }

  private static List<RawTurn> insert(Handle h, String namespace, String session, List<RawTurn> turns) {
    List<RawTurn> added = new ArrayList<>();
    for (RawTurn t : turns) {
      // the new row's rowid comes back with the insert (none when the turn was stored): one
      // statement less in the transaction every append holds the write lock for
      java.util.Optional<Long> rowid = h.createQuery("INSERT OR IGNORE INTO turns(" + Rows.TURN_COLUMNS
              + ") VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING rowid")
          .bind(0, namespace).bind(1, session).bind(2, t.index()).bind(3, t.role().wireName())
          .bind(4, t.speaker()).bind(5, t.text()).bind(6, ColumnCodec.iso(t.time())).mapTo(Long.class).findOne();
      if (rowid.isPresent()) {
        h.execute("INSERT INTO turns_fts(rowid, body) VALUES (?, ?)", rowid.get(), LexicalText.document(t.content()));
        added.add(t);
      }
    }
    return added;
  }

  int nextIndex(String namespace, String session) {
    return reads.db().read(h -> h.createQuery(NEXT_INDEX).bind(0, namespace).bind(1, session)
        .mapTo(Integer.class).one());
  }

  java.util.Optional<RawTurn> turn(String namespace, TurnRef ref) {
    return reads.db().read(h -> h.createQuery("SELECT " + Rows.TURN_COLUMNS
            + " FROM turns WHERE namespace = ? AND session = ? AND idx = ?")
        .bind(0, namespace).bind(1, ref.session()).bind(2, ref.index()).map(Rows::turn).findOne());
  }

  /**
   * From the namespace's turns in memory while they are current (the lexical search keeps them, see
   * {@link TurnBm25}); else cached turns first, the rest in one statement, in the order of {@code refs}. The refs travel as
   * one JSON array of {@code [session, index]} pairs, each looked up by the unique (namespace,
   * session, idx) index. One statement per recall step whatever the sessions: the hits of a
   * namespace that holds many sessions span many of them (about 35 per recall on conv-26 copied 20
   * times), and a statement per session cost a prepare and a round through Jdbi each.
   */
  List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    List<TurnRef> wanted = List.copyOf(new LinkedHashSet<>(refs));
    List<RawTurn> copied = copies.turns(namespace, reads.db().dataVersion(namespace), wanted);
    if (copied != null) {
      return copied;
    }
    long version = reads.version(namespace);
    Map<TurnRef, RawTurn> found = new HashMap<>();
    List<TurnRef> missing = new ArrayList<>();
    for (TurnRef r : wanted) {
      RawTurn cached = reads.get(version, new VersionedCache.Key('t', namespace, r));
      if (cached != null) {
        found.put(r, cached);
      } else {
        missing.add(r);
      }
    }
    if (!missing.isEmpty()) {
      reads.db().read(h -> {
        h.createQuery(BY_REFS).bind(0, JsonColumns.turnRefs(missing)).bind(1, namespace)
            .map(Rows::turn).forEach(t -> {
              found.put(t.ref(), t);
              reads.put(version, new VersionedCache.Key('t', namespace, t.ref()), t);
            });
        return null;
      });
    }
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  /**
   * From the namespace's turns in memory while they are current, else from the table; source
   * windows ask for the same short ranges route after route, hence the cache.
   */
  List<RawTurn> window(String namespace, String session, int from, int to) {
    List<RawTurn> copied = copies.window(namespace, reads.db().dataVersion(namespace), session, from, to);
    if (copied != null) {
      return copied;
    }
    return reads.cached(new VersionedCache.Key('w', namespace, List.of(session, from, to)),
        () -> List.copyOf(reads.db().read(h -> h.createQuery("SELECT " + Rows.TURN_COLUMNS
                + " FROM turns WHERE namespace = ? AND session = ? AND idx BETWEEN ? AND ? ORDER BY idx")
            .bind(0, namespace).bind(1, session).bind(2, from).bind(3, to).map(Rows::turn).list())));
  }

  List<String> sessions(String namespace) {
    return reads.db().read(h -> h.createQuery(
            "SELECT session FROM turns WHERE namespace = ? GROUP BY session ORDER BY MIN(rowid)")
        .bind(0, namespace).mapTo(String.class).list());
  }

  List<String> namespaces() {
    return reads.db().read(h -> h.createQuery("SELECT DISTINCT namespace FROM turns ORDER BY namespace")
        .mapTo(String.class).list());
  }

  long count(String namespace) {
    return reads.db().read(h -> h.createQuery("SELECT COUNT(*) FROM turns WHERE namespace = ?")
        .bind(0, namespace).mapTo(Long.class).one());
  }

  /** Deletes the namespace's turns with their FTS rows; returns their ids in storage order. */
  static List<String> deleteNamespace(Handle h, String namespace) {
    List<String> ids = h.createQuery("SELECT 'episode:' || session || ':' || idx FROM turns"
            + " WHERE namespace = ? ORDER BY rowid")
        .bind(0, namespace).mapTo(String.class).list();
    h.execute("DELETE FROM turns_fts WHERE rowid IN (SELECT rowid FROM turns WHERE namespace = ?)", namespace);
    h.execute("DELETE FROM turns WHERE namespace = ?", namespace);
    countDeletion(h, namespace);
    return ids;
  }

  /** Deletes one session's turns with their FTS rows; returns their ids by index. */
  static List<String> deleteSession(Handle h, String namespace, String session) {
    List<String> ids = h.createQuery("SELECT 'episode:' || session || ':' || idx FROM turns"
            + " WHERE namespace = ? AND session = ? ORDER BY idx")
        .bind(0, namespace).bind(1, session).mapTo(String.class).list();
    h.execute("DELETE FROM turns_fts WHERE rowid IN (SELECT rowid FROM turns WHERE namespace = ? AND session = ?)",
        namespace, session);
    h.execute("DELETE FROM turns WHERE namespace = ? AND session = ?", namespace, session);
    countDeletion(h, namespace);
    return ids;
  }

  /** Bumps the namespace's deletion count (schema V2), in the deleting transaction. */
  private static void countDeletion(Handle h, String namespace) {
    h.execute("INSERT INTO turn_deletions(namespace, deletions) VALUES (?, 1)"
        + " ON CONFLICT(namespace) DO UPDATE SET deletions = deletions + 1", namespace);
  }
}
