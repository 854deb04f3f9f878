package dev.lychee.store.postgres;

import dev.lychee.api.spi.ReadPoint;
import dev.lychee.core.store.SharedReadPoint;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ReadPoint} of one namespace on one database: the first read inside it reads every head
 * of the namespace in one statement (the turn head, the row head of records and nodes, and the
 * head of each vector kind), and every read of the namespace inside it brings its local copy
 * ({@link TurnTextIndex}, {@link LocalRows}, {@link PostgresVectorIndex}) up to those heads instead
 * of reading its own head first.
 *
 * <p>Why: with the local copies, a recall's statements were mostly head reads, one per store call
 * (about nine per recall: turns four or five times, rows twice, vectors three times), each a round
 * trip, most of them after the query embedding and so on the recall's path (docs/measurements.md
 * §6, round eighteen). Exactness: one statement reads all heads in one snapshot taken after the
 * point's first read began, so every read inside the point sees every write committed before that
 * moment, as a read started then would (architecture §6); a copy that another call brought further
 * is read as it is, as before.
 *
 * <p>Which point a thread is inside is kept per thread ({@link SharedReadPoint}): only the innermost
 * point counts, and only for its own database and namespace.
 */
final class HeadPoint extends SharedReadPoint<HeadPoint.Heads> {
  /** Every head of one namespace, read in one statement; a head never written is null or absent. */
  record Heads(TurnTable.Head turns, LocalRows.Head rows, Map<String, VectorTable.Head> vectors) {
    /** The heads of {@code kinds} that were ever written, in the order asked. */
    Map<String, VectorTable.Head> vectors(List<String> kinds) {
      Map<String, VectorTable.Head> out = new LinkedHashMap<>();
      for (String kind : kinds) {
        VectorTable.Head head = vectors.get(kind);
        if (head != null) {
          out.put(kind, head);
        }
      }
      return out;
    }
  }

  private final PostgresDatabase db;
  private final String namespace;

  HeadPoint(PostgresDatabase db, String namespace) {
    super(db, namespace);
    this.db = db;
    this.namespace = namespace;
  }

  /**
   * The heads of {@code namespace} at the point the calling thread is inside, read now if this is
   * the point's first read; null when the thread is inside no point of that database and namespace
   * (the caller then reads its own head).
   */
  static Heads entered(PostgresDatabase db, String namespace) {
    return entered(HeadPoint.class, db, namespace);
  }

  /**
   * One row of the heads statement: which head ({@code t} turns, {@code r} rows, {@code v} a vector
   * kind), and the server run that answered ({@link VectorTable#SERVER_RUN}).
   */
  private record Part(String part, String kind, long epoch, long seq, String server) {}

  /** Every head of the namespace, in one statement (the point's first read that asks). */
  @Override
  protected Heads read() {
    List<Part> parts = db.read(h -> h.createQuery(
            "SELECT 't' AS part, NULL::text AS kind, epoch, seq, NULL::text AS server FROM turn_heads"
                + " WHERE namespace = :ns UNION ALL SELECT 'r', NULL, epoch, seq, NULL FROM row_heads WHERE namespace = :ns"
                + " UNION ALL SELECT 'v', kind, epoch, seq, " + VectorTable.SERVER_RUN
                + " FROM vector_heads WHERE namespace = :vns")
        .bind("ns", namespace).bind("vns", Columns.text(namespace))
        .map((rs, ctx) -> new Part(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getString(5)))
        .list());
    TurnTable.Head turns = null;
    LocalRows.Head rows = null;
    Map<String, VectorTable.Head> vectors = new HashMap<>();
    for (Part p : parts) {
      switch (p.part()) {
        case "t" -> turns = new TurnTable.Head(p.epoch(), p.seq());
        case "r" -> rows = new LocalRows.Head(p.epoch(), p.seq());
        default -> vectors.put(p.kind(), new VectorTable.Head(p.epoch(), p.seq(), p.server()));
      }
    }
    return new Heads(turns, rows, Map.copyOf(vectors));
  }
}
