package dev.lychee.store.sqlite;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.ScoredId;
import dev.lychee.core.store.RecordSearchText;
import dev.lychee.core.store.TextTokenizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;

/**
 * The record search of {@link FtsSearch} with FTS5's own {@code bm25()} ranking, scored in Java,
 * for the reason {@link TurnBm25} gives for turns: FTS5 scores every record that holds any of the
 * question's words before it sorts, so its cost grew with every record holding a function word
 * (24 of 70 native samples of a recall at scale 20 were that query).
 *
 * <p>Unlike turns, records change after they are stored: a record put again under its id is
 * rewritten in place (merged, same {@code seq}, new text), and forgetting deletes records or
 * rewrites them without a session. Every write stamps the rows it writes with the namespace's
 * write count ({@code records.rev}, bumped once per writing transaction in
 * {@code record_changes}, schema V3), so the postings catch up by reading the rows stamped after
 * the count they were read at; a rewritten record's old slot is {@linkplain Bm25Postings#remove
 * removed} and it gets a new one. Deletions bump the namespace's deletion count instead, and a
 * namespace whose deletion count moved is read again from scratch (SQLite may hand a deleted
 * {@code seq} to a new record). When more than half the slots are dead, the namespace is read
 * again too, so merges cannot grow the postings without bound.
 *
 * <p>A document is {@link RecordSearchText} of the record, tokenised as {@link LexicalText#document}
 * tokenised it for FTS5. Thread-safe: one lock per namespace.
 *
 * <p>The refresh decodes every record it reads, so the live records are kept by id beside the
 * postings, and {@link #records} answers reads by id from them while they were caught up at the
 * file's present {@code data_version} (docs/defaults.md §3.3); like {@link TurnBm25}'s turns, only
 * a search catches them up.
 */
final class RecordBm25 {
  /**
   * Dead slots below this never force a re-read, so that a small namespace is not read again for a
   * few merges (docs/defaults.md §3.3).
   */
  private static final int MIN_DEAD_TO_COMPACT = 1024;

  private final SqliteDatabase db;
  private final Fts5Statistics statistics;
  private final Map<String, Records> namespaces = new ConcurrentHashMap<>();

  RecordBm25(SqliteDatabase db) {
    this.db = db;
    this.statistics = new Fts5Statistics(db, "records_fts", namespaces::values);
  }

  /** The table's statistics the searches rank with (for tests). */
  Fts5Statistics statistics() {
    return statistics;
  }

  /**
   * The {@code k} best records of the namespace for the query terms (in {@link LexicalText#query}'s
   * order), best first, as record ids with FTS5's bm25 score negated.
   */
  List<ScoredId> search(String namespace, List<String> terms, int k) {
    long version = db.dataVersion(namespace);
    Fts5Statistics.Snapshot s = statistics.at(version);
    if (s.rows() <= 0) {
      return List.of();
    }
    Records p = namespaces.computeIfAbsent(namespace, Records::new);
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
   * The records of {@code ids} (no id twice) in their order, unknown ids dropped, from the namespace's
   * live records when they were caught up at data version {@code now}; {@code null} when they were
   * not (the caller then reads the table).
   */
  List<MemoryRecord> records(String namespace, long now, Collection<String> ids) {
    Records p = namespaces.get(namespace);
    if (p == null) {
      return null;
    }
    synchronized (p) {
      if (p.version != now) {
        return null;
      }
      List<MemoryRecord> out = new ArrayList<>(ids.size());
      for (String id : ids) {
        MemoryRecord r = p.byId.get(id);
        if (r != null) {
          out.add(r);
        }
      }
      return Collections.unmodifiableList(out); // as the table's reads: not for the caller to change
    }
  }

  /** One namespace's records: their postings, each live record's slot and the record itself, and the counts they were read at. */
  private static final class Records extends Fts5Statistics.Copy {
    private final String namespace;
    private final Map<Long, Integer> slotOfSeq = new HashMap<>();
    /** The live records as last read, by id (an id keeps its seq: merges rewrite the row in place). */
    private final Map<String, MemoryRecord> byId = new HashMap<>();
    /** The namespace's write count the postings hold every write of; -1: nothing read yet. */
    private long writes = -1;
    private long deletions;

    Records(String namespace) {
      this.namespace = namespace;
    }

    void refresh(SqliteDatabase db, long now) {
      if (now == version) {
        return;
      }
      // one snapshot, so that the counts and the rows read agree
      db.readConsistent(h -> {
        long[] changes = ChangeCounts.RECORDS.read(h, namespace);
        if (changes[1] != deletions) {
          clear();
          deletions = changes[1];
        }
        if (changes[0] != writes) {
          readAfter(h, writes);
          if (postings.deadSlots() >= MIN_DEAD_TO_COMPACT && postings.deadSlots() * 2 > postings.slots()) {
            clear();
            readAfter(h, -1);
          }
          writes = changes[0];
        }
        return null;
      });
      version = now;
    }

    /** Adds (or, for a rewritten record, replaces) the namespace's records stamped after write {@code rev}. */
    private void readAfter(Handle h, long rev) {
      h.createQuery("SELECT " + Rows.RECORD_COLUMNS + " FROM records WHERE namespace = ? AND rev > ?"
              + " ORDER BY rev, seq")
          .bind(0, namespace).bind(1, rev)
          .map((rs, ctx) -> Map.entry(rs.getLong("seq"), Rows.record(rs, ctx)))
          .forEach(e -> add(e.getKey(), e.getValue()));
    }

    private void add(long seq, MemoryRecord r) {
      Integer old = slotOfSeq.get(seq);
      if (old != null) {
        postings.remove(old);
      }
      slotOfSeq.put(seq, postings.add(r.id(), TextTokenizer.tokens(RecordSearchText.of(r))));
      byId.put(r.id(), r);
    }

    private void clear() {
      postings.clear();
      slotOfSeq.clear();
      byId.clear();
      writes = -1;
    }
  }
}
