package dev.lychee.store.sqlite;

import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryRecord;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.store.MergeOnPut;
import dev.lychee.core.store.RecordSearchText;
import dev.lychee.core.store.SessionPruning;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The {@code records} table and its FTS5 shadow {@code records_fts} (rowid = the record's
 * {@code seq}, its first-insertion position). Merging is planned by {@link MergeOnPut}; this class
 * only reads and writes rows.
 */
final class RecordTable {
  private static final String SELECT = "SELECT " + Rows.RECORD_COLUMNS + " FROM records";

  private final CachedReads reads;
  /** The searched namespaces' live records in memory, kept current by their searches. */
  private final RecordBm25 copies;

  RecordTable(CachedReads reads, RecordBm25 copies) {
    this.reads = reads;
    this.copies = copies;
  }

  /** Puts records inside a caller's transaction; stored ids are merged and keep their seq. */
  static void put(Handle h, String namespace, List<MemoryRecord> records) {
    write(h, namespace, plan(h, namespace, records));
  }

  /**
   * What {@link #put} writes for {@code records}: each merged with its stored row (read here) and
   * placed at its seq, or new. Valid for a later transaction while the namespace's record change
   * counts ({@link ChangeCounts#RECORDS}) have not moved since the snapshot it was read in.
   */
  static List<MergeOnPut.Placed<MemoryRecord>> plan(Handle h, String namespace, List<MemoryRecord> records) {
    return records.isEmpty() ? List.of() : MergeOnPut.records(records, id -> stored(h, namespace, id));
  }

  /** Writes a {@link #plan} inside a caller's transaction, stamped with one new write count. */
  static void write(Handle h, String namespace, List<MergeOnPut.Placed<MemoryRecord>> plan) {
    if (plan.isEmpty()) {
      return;
    }
    long rev = ChangeCounts.RECORDS.bump(h, namespace, false);
    for (MergeOnPut.Placed<MemoryRecord> p : plan) {
      if (p.isNew()) {
        write(h, p.value(), null, rev);
        long seq = h.createQuery("SELECT last_insert_rowid()").mapTo(Long.class).one();
        index(h, seq, p.value());
      } else {
        write(h, p.value(), p.position(), rev);
        h.execute("DELETE FROM records_fts WHERE rowid = ?", p.position());
        index(h, p.position(), p.value());
      }
    }
  }

  private static Optional<MergeOnPut.Placed<MemoryRecord>> stored(Handle h, String namespace, String id) {
    return h.createQuery(SELECT + " WHERE namespace = ? AND id = ?").bind(0, namespace).bind(1, id)
        .map((rs, ctx) -> new MergeOnPut.Placed<>(Rows.record(rs, ctx), rs.getLong("seq"))).findOne();
  }

  private static void index(Handle h, long seq, MemoryRecord r) {
    h.execute("INSERT INTO records_fts(rowid, body) VALUES (?, ?)", seq, LexicalText.document(RecordSearchText.of(r)));
  }

  /** Inserts (seq null) or rewrites (seq given) one record row, stamped with write count {@code rev}. */
  private static void write(Handle h, MemoryRecord r, Long seq, long rev) {
    DateRange span = r.temporal().span();
    h.createUpdate("INSERT OR REPLACE INTO records(" + Rows.RECORD_COLUMNS
            + ", rev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(0, seq).bind(1, r.namespace()).bind(2, r.id()).bind(3, r.type().name()).bind(4, r.text())
        .bind(5, JsonColumns.strings(r.entities())).bind(6, JsonColumns.strings(r.tags()))
        .bind(7, r.temporal().tRef()).bind(8, r.temporal().tValidFrom()).bind(9, r.temporal().tValidTo())
        .bind(10, span == null ? null : ColumnCodec.iso(span.start()))
        .bind(11, span == null ? null : ColumnCodec.iso(span.end()))
        .bind(12, span == null ? 0 : 1).bind(13, r.temporal().unparsed() ? 1 : 0)
        .bind(14, JsonColumns.turnRefs(r.evidence())).bind(15, r.session()).bind(16, r.segmentId())
        .bind(17, r.sourceRole().name()).bind(18, ColumnCodec.iso(r.createdAt())).bind(19, rev).execute();
  }

  /** From the namespace's records in memory while they are current (see {@link RecordBm25}), else the table. */
  List<MemoryRecord> byIds(String namespace, Collection<String> ids) {
    List<MemoryRecord> copied = copies.records(namespace, reads.db().dataVersion(namespace), new LinkedHashSet<>(ids));
    if (copied != null) {
      return copied;
    }
    return reads.byIds(namespace, ids, 'r', SELECT, Rows::record, MemoryRecord::id);
  }

  List<MemoryRecord> all(String namespace) {
    return reads.db().read(h -> h.createQuery(SELECT + " WHERE namespace = ? ORDER BY seq")
        .bind(0, namespace).map(Rows::record).list());
  }

  /** Deletes the namespace's records with their FTS rows; returns their ids in seq order. */
  static List<String> deleteNamespace(Handle h, String namespace) {
    List<String> ids = h.createQuery("SELECT id FROM records WHERE namespace = ? ORDER BY seq")
        .bind(0, namespace).mapTo(String.class).list();
    h.execute("DELETE FROM records_fts WHERE rowid IN (SELECT seq FROM records WHERE namespace = ?)", namespace);
    h.execute("DELETE FROM records WHERE namespace = ?", namespace);
    ChangeCounts.RECORDS.bump(h, namespace, true);
    return ids;
  }

  /**
   * Drops a session's evidence from every record ({@link SessionPruning}); records left without
   * evidence are deleted. Returns the deleted ids.
   */
  static List<String> pruneSession(Handle h, String namespace, String session) {
    List<String> removed = new ArrayList<>();
    Long rev = null;
    List<MergeOnPut.Placed<MemoryRecord>> rows = h.createQuery(SELECT + " WHERE namespace = ? ORDER BY seq")
        .bind(0, namespace).map((rs, ctx) -> new MergeOnPut.Placed<>(Rows.record(rs, ctx), rs.getLong("seq"))).list();
    for (MergeOnPut.Placed<MemoryRecord> row : rows) {
      MemoryRecord kept = SessionPruning.withoutSession(row.value(), session);
      if (kept == null) {
        h.execute("DELETE FROM records_fts WHERE rowid = ?", row.position());
        h.execute("DELETE FROM records WHERE seq = ?", row.position());
        removed.add(row.value().id());
      } else if (kept != row.value()) {
        if (rev == null) {
          rev = ChangeCounts.RECORDS.bump(h, namespace, false);
        }
        write(h, kept, row.position(), rev);
      }
    }
    if (!removed.isEmpty()) {
      ChangeCounts.RECORDS.bump(h, namespace, true);
    }
    return removed;
  }

}
