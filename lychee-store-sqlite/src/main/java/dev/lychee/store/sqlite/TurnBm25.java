package dev.lychee.store.sqlite;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.core.store.TextTokenizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;

/**
 * The turn search of {@link FtsSearch} with FTS5's own {@code bm25()} ranking, scored in Java.
 *
 * <p>FTS5 scores every row that holds any of the query's words, through its auxiliary-function
 * interface, before it sorts them; a question's function words ({@code it}, {@code and},
 * {@code the}) are in most turns, so that cost grows with the whole namespace (2.8 ms per query
 * at 419 turns, 64.8 ms at 8,380). Here the namespace's turns are held as {@link Bm25Postings},
 * kept up to date from the append-only turn log, and scored with FTS5's formula and FTS5's own
 * statistics ({@link Fts5Statistics} of {@code turns_fts}). The sum runs over the query's terms in
 * FTS5's order, so a row's score is the one {@code bm25()} gives up to the last bit of the
 * logarithm; ties are broken by hit id, as the SQL query does.
 *
 * <p>A document is the {@link LexicalText#document} of the turn's content, the text the FTS table
 * was given, tokenised the same way. Thread-safe: one lock per namespace.
 *
 * <p>The refresh reads every turn row of the namespace in full, so the decoded turns are kept
 * beside the postings: while that copy is current (read at the file's present {@code data_version},
 * which any commit of any connection moves), {@link #turns} and {@link #window} answer the recall's
 * reads of turns by id and by range from it instead of SQL (docs/defaults.md §3.3). They never
 * refresh the copy themselves: only a search does, so a namespace nobody searches costs no memory
 * and an append's reads between searches stay the SQL they were.
 */
final class TurnBm25 {
  private final SqliteDatabase db;
  private final Fts5Statistics statistics;
  private final Map<String, Turns> namespaces = new ConcurrentHashMap<>();

  TurnBm25(SqliteDatabase db) {
    this.db = db;
    this.statistics = new Fts5Statistics(db, "turns_fts", namespaces::values);
  }

  /** The table's statistics the searches rank with (for tests). */
  Fts5Statistics statistics() {
    return statistics;
  }

  /**
   * The {@code k} best turns of the namespace for the query terms (in {@link LexicalText#query}'s
   * order), best first, as {@code 'episode:<session>:<idx>'} ids with FTS5's bm25 score negated.
   */
  List<ScoredId> search(String namespace, List<String> terms, int k) {
    long version = db.dataVersion(namespace);
    Fts5Statistics.Snapshot s = statistics.at(version);
    if (s.rows() <= 0) {
      return List.of();
    }
    Turns p = namespaces.computeIfAbsent(namespace, Turns::new);
    synchronized (p) {
      p.refresh(db, version);
    }
    // outside the copy's lock: the counts may read every held copy, each under its own lock
    statistics.count(s, terms);
    synchronized (p) {
      p.refresh(db, version); // nothing to do unless another search moved the copy since
      return p.postings.search(terms, s, k);
    }
  }

  /**
   * The turns of {@code refs} (no ref twice) in their order, unknown refs dropped, from the namespace's
   * copy when it was read at data version {@code now}; {@code null} when there is no current copy
   * (the caller then reads them from the table).
   */
  List<RawTurn> turns(String namespace, long now, Collection<TurnRef> refs) {
    return fromCopy(namespace, now, p -> {
      List<RawTurn> out = new ArrayList<>(refs.size());
      for (TurnRef r : refs) {
        NavigableMap<Integer, RawTurn> session = p.sessions.get(r.session());
        RawTurn t = session == null ? null : session.get(r.index());
        if (t != null) {
          out.add(t);
        }
      }
      return Collections.unmodifiableList(out); // as the table's reads: not for the caller to change
    });
  }

  /**
   * The session's turns with an index from {@code from} to {@code to} (both included) by index, from
   * the namespace's copy when it was read at data version {@code now}; {@code null} when there is no
   * current copy.
   */
  List<RawTurn> window(String namespace, long now, String session, int from, int to) {
    return fromCopy(namespace, now, p -> {
      NavigableMap<Integer, RawTurn> turns = p.sessions.get(session);
      if (turns == null || from > to) {
        return List.of();
      }
      return List.copyOf(turns.subMap(from, true, to, true).values());
    });
  }

  /**
   * {@code read} applied, under the namespace's lock, to its copy when that copy was read at data
   * version {@code now}; {@code null} when the namespace was never searched or its copy is behind.
   */
  private <T> T fromCopy(String namespace, long now, Function<Turns, T> read) {
    Turns p = namespaces.get(namespace);
    if (p == null) {
      return null;
    }
    synchronized (p) {
      return p.version == now ? read.apply(p) : null;
    }
  }

  /** One namespace's turns: their postings, the decoded rows and how far into the turn log they are. */
  private static final class Turns extends Fts5Statistics.Copy {
    private final String namespace;
    /** The decoded turns by session and index: the rows the postings were built from. */
    private final Map<String, NavigableMap<Integer, RawTurn>> sessions = new HashMap<>();
    private long maxRowid;
    /** The namespace's deletion count (schema V2) the postings were read at. */
    private long deletions;

    Turns(String namespace) {
      this.namespace = namespace;
    }

    /**
     * Adds the turns stored since the last look (turns are append-only, and a new row's rowid is
     * above every live one); a namespace that lost turns (forgotten, as its deletion count in
     * {@code turn_deletions} shows, even when as many turns came after) is read again from
     * scratch.
     */
    void refresh(SqliteDatabase db, long now) {
      if (now == version) {
        return;
      }
      db.read(h -> {
        long count = h.createQuery("SELECT count(*) FROM turns WHERE namespace = ?").bind(0, namespace)
            .mapTo(Long.class).one();
        long deleted = h.createQuery("SELECT deletions FROM turn_deletions WHERE namespace = ?")
            .bind(0, namespace).mapTo(Long.class).findOne().orElse(0L);
        if (deleted != deletions || count < postings.slots()) {
          // turns were forgotten (here or by another process): a rowid may have been reused
          clear();
          deletions = deleted;
        }
        if (count != postings.slots()) {
          readAfter(h, maxRowid);
          if (postings.slots() != count) {
            // a turn below the last rowid seen (not expected): read everything again
            clear();
            readAfter(h, Long.MIN_VALUE);
          }
        }
        return null;
      });
      version = now;
    }

    /** Adds the namespace's turns stored above {@code rowid}, in storage order. */
    private void readAfter(Handle h, long rowid) {
      h.createQuery("SELECT rowid, " + Rows.TURN_COLUMNS + " FROM turns WHERE namespace = ? AND rowid > ?"
              + " ORDER BY rowid")
          .bind(0, namespace).bind(1, rowid)
          .map((rs, ctx) -> {
            maxRowid = Math.max(maxRowid, rs.getLong("rowid"));
            return Rows.turn(rs, ctx);
          })
          .forEach(this::add);
    }

    private void clear() {
      maxRowid = 0;
      postings.clear();
      sessions.clear();
    }

    private void add(RawTurn t) {
      postings.add(t.id(), TextTokenizer.tokens(t.content()));
      sessions.computeIfAbsent(t.session(), s -> new TreeMap<>()).put(t.index(), t);
    }
  }
}
