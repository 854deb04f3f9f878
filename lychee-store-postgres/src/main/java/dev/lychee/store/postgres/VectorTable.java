package dev.lychee.store.postgres;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Tables {@code vectors}, {@code vector_tombstones} and {@code vector_heads}: float32 vectors
 * (little-endian {@code bytea}) keyed by (namespace, kind, id), the ids removed since, and one head
 * row per (namespace, kind) that orders every change.
 *
 * <p>Why a head row: a sequence alone hands out numbers in call order, not commit order, so a
 * reader that saw change 11 could miss change 10 committing later. Every write to a (namespace,
 * kind) therefore first takes a new number <em>on its head row</em>, which holds that row's lock
 * until commit: writes to one index commit in number order, and a snapshot that shows the head at
 * N shows every change up to N. An id lives in {@code vectors} or in {@code vector_tombstones},
 * never both, each row stamped with the number of its last change; {@code epoch} moves when the
 * namespace is forgotten, so instances drop what they hold instead of replaying deletions.
 */
final class VectorTable {
  private static final int IN_CHUNK = 1000;

  /**
   * Where one index stands: its epoch, the number of its last change, and the run of the server
   * that answered ({@link #SERVER_RUN}, read in the same statement as the head).
   *
   * <p>Why the run (round twenty-three): some vector writes commit without waiting for the WAL
   * flush ({@link #upsert}'s {@code unsynced}, {@link #upsertAll}), and readers see them at once. A
   * server crash can lose such commits, and after recovery the head is back at an older number and
   * {@code vector_changes} hands the lost numbers out again, so a copy kept by an instance that
   * survived the crash would skip the new changes under those numbers for good. A copy is therefore
   * trusted only by a head of the server run it was read from; any other run means a full reload.
   */
  record Head(long epoch, long seq, String server) {}

  /**
   * The run of the server a statement runs on, as text: the postmaster's start time and the reset
   * time of the shared background-writer statistics, as seconds since 1970. A restart changes the
   * first; a crash recovery changes the second, also the one the postmaster runs without
   * restarting after a backend crashed, which keeps the start time (seen on PostgreSQL 15: a
   * backend killed with SIGKILL) but discards the statistics and stamps their reset time. A clean
   * shutdown flushes every commit, and a reset of those statistics by hand only costs a reload.
   * Every connection opened before either event is gone, so a head read with the run tells whether
   * a local copy was read from this run. A column of the head statements, not a statement of its
   * own: no extra round trip per read.
   */
  static final String SERVER_RUN = "concat(extract(epoch FROM pg_postmaster_start_time()), ' ',"
      + " extract(epoch FROM pg_stat_get_bgwriter_stat_reset_time()))";

  /** The first kind of an {@link #upsertAll} whose index holds another dimension (null: none), and that dimension. */
  private record Clash(String kind, int stored) {}

  /** Changes of one index after a known number: new or replaced vectors, and removed ids. */
  record Changes(Map<String, float[]> upserts, List<String> removals) {
    int size() {
      return upserts.size() + removals.size();
    }
  }

  static byte[] encode(float[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(v);
    return b.array();
  }

  static float[] decode(byte[] bytes) {
    float[] v = new float[bytes.length / 4];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    return v;
  }

  /** Takes the next change number for the index, locking its head row until commit. */
  private static long nextChange(Handle h, String ns, String kind) {
    return h.createQuery("INSERT INTO vector_heads(namespace, kind, seq) VALUES (:ns, :kind, nextval('vector_changes'))"
            + " ON CONFLICT (namespace, kind) DO UPDATE SET seq = nextval('vector_changes') RETURNING seq")
        .bind("ns", Columns.text(ns)).bind("kind", kind).mapTo(Long.class).one();
  }

  /**
   * Inserts or replaces vectors of one dimension in one statement. Run on its own in autocommit
   * ({@link PostgresDatabase#writeStatement}) it is a whole transaction in one round trip: the
   * change number (taking the head row's lock first, see the class comment), the dimension check,
   * the tombstones of the ids and the rows, and the commit. Why: a turn vector is written on every
   * {@code append}'s path after its embedding, and three round trips there (head, rows, commit)
   * were waited for one after another (docs/defaults.md §3.3).
   *
   * <p>The head's CTE runs first: the statement's result reads it first, and the other parts read
   * its number, so the head row is locked before any vector or tombstone row, in the order of the
   * other writes. When the index holds vectors of another dimension nothing is written (the head
   * does not move) and this throws.
   *
   * @param unsynced whether the transaction's commit skips the wait for the WAL flush: the statement
   *     then also sets {@code synchronous_commit} to {@code off} for its own transaction
   *     ({@code set_config(..., true)}, read at commit, also for the implicit transaction of a
   *     statement in autocommit). Only for data that can be rebuilt: the vectors of raw turns, which
   *     the write path re-embeds from the stored turns; such a commit is atomic, and lost only if
   *     the server crashes within a moment of it
   * @throws IllegalArgumentException if the index holds vectors of another dimension
   */
  void upsert(Handle h, String ns, String kind, Map<String, float[]> vectors, int dim, boolean unsynced) {
    List<String> ids = new ArrayList<>(vectors.size());
    ByteBuffer all = ByteBuffer.allocate(vectors.size() * dim * 4).order(ByteOrder.LITTLE_ENDIAN);
    vectors.forEach((id, v) -> {
      ids.add(Columns.text(id));
      all.asFloatBuffer().put(v);
      all.position(all.position() + v.length * 4);
    });
    Map.Entry<Long, Integer> done = h.createQuery("WITH head AS (INSERT INTO vector_heads(namespace, kind, seq)"
            + " SELECT :ns, :kind, nextval('vector_changes')"
            + " WHERE COALESCE((SELECT dim FROM vectors WHERE namespace = :ns AND kind = :kind LIMIT 1), :dim) = :dim"
            + " ON CONFLICT (namespace, kind) DO UPDATE SET seq = nextval('vector_changes') RETURNING seq),"
            + " alive AS (DELETE FROM vector_tombstones WHERE namespace = :ns AND kind = :kind"
            + " AND id = ANY(CAST(:ids AS text[])) AND (SELECT seq FROM head) IS NOT NULL),"
            + " put AS (INSERT INTO vectors(namespace, kind, id, dim, vec, seq)"
            + " SELECT :ns, :kind, u.id, :dim, substring(CAST(:vecs AS bytea) FROM (CAST(u.o AS integer) - 1) * :bytes + 1 FOR :bytes), head.seq"
            + " FROM head, unnest(CAST(:ids AS text[])) WITH ORDINALITY AS u(id, o)"
            + " ON CONFLICT (namespace, kind, id) DO UPDATE SET dim = EXCLUDED.dim, vec = EXCLUDED.vec, seq = EXCLUDED.seq)"
            + " SELECT (SELECT seq FROM head), (SELECT dim FROM vectors WHERE namespace = :ns AND kind = :kind LIMIT 1)"
            + (unsynced ? ", set_config('synchronous_commit', 'off', true)" : ""))
        .bind("ns", Columns.text(ns)).bind("kind", kind).bind("dim", dim).bind("bytes", dim * 4)
        .bindArray("ids", String.class, ids).bind("vecs", all.array())
        .map((rs, ctx) -> {
          long changed = rs.getLong(1);
          boolean written = !rs.wasNull();
          int stored = rs.getInt(2);
          return Map.entry(written ? changed : -1L, rs.wasNull() ? -1 : stored);
        }).one();
    if (done.getKey() < 0) {
      throw new IllegalArgumentException("vectors have dimension " + dim + " but the index holds dimension " + done.getValue());
    }
  }

  /**
   * Inserts or replaces the vectors of several kinds of one namespace in one statement, all kinds or
   * none: {@link #upsert} for each kind, folded. Run in autocommit it is one transaction in one round
   * trip, and its commit skips the wait for the WAL flush. Why (round nineteen, docs/measurements.md
   * §6): a segment's record and node vectors went out as one synced statement per kind, 4.6 per
   * segment in a LoCoMo ingest, each a round trip and a WAL flush on the encoder's path. The flush
   * is not needed: the write path calls this right before the segment's records commit
   * ({@code commitClaimed}, synced), and a flush covers every earlier WAL record, so these become
   * durable with it; a server crash before that loses both, and the segment, still PENDING, is
   * encoded again.
   *
   * <p>The head rows are taken in the order of the kinds' names, so two such writes of the same
   * kinds wait for each other instead of deadlocking; each kind's vectors carry its own new change
   * number, as a statement per kind would. When the index of any kind holds vectors of another
   * dimension nothing is written (no head moves) and this throws, naming the first such kind.
   *
   * @param byKind vectors by kind, each kind's batch non-empty and of the dimension in {@code dims}
   * @throws IllegalArgumentException if some kind's index holds vectors of another dimension
   */
  void upsertAll(Handle h, String ns, Map<String, Map<String, float[]>> byKind, Map<String, Integer> dims) {
    List<String> kinds = byKind.keySet().stream().sorted().toList();
    List<Integer> kindDims = new ArrayList<>(kinds.size());
    List<String> vectorKinds = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    List<Integer> offsets = new ArrayList<>();
    List<Integer> lengths = new ArrayList<>();
    int bytes = 0;
    for (String kind : kinds) {
      int dim = dims.get(kind);
      kindDims.add(dim);
      for (Map.Entry<String, float[]> e : byKind.get(kind).entrySet()) {
        vectorKinds.add(kind);
        ids.add(Columns.text(e.getKey()));
        offsets.add(bytes);
        lengths.add(dim * 4);
        bytes += dim * 4;
      }
    }
    ByteBuffer all = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (String kind : kinds) {
      byKind.get(kind).values().forEach(v -> {
        all.asFloatBuffer().put(v);
        all.position(all.position() + v.length * 4);
      });
    }
    Clash clash = h.createQuery("WITH want AS (SELECT k.kind, k.dim"
            + " FROM unnest(CAST(:kinds AS text[]), CAST(:dims AS integer[])) AS k(kind, dim)),"
            + " clash AS (SELECT w.kind, s.dim FROM want w, LATERAL (SELECT dim FROM vectors v"
            + " WHERE v.namespace = :ns AND v.kind = w.kind LIMIT 1) s WHERE s.dim <> w.dim),"
            + " head AS (INSERT INTO vector_heads(namespace, kind, seq) SELECT :ns, w.kind, nextval('vector_changes')"
            + " FROM want w WHERE NOT EXISTS (SELECT 1 FROM clash) ORDER BY w.kind"
            + " ON CONFLICT (namespace, kind) DO UPDATE SET seq = nextval('vector_changes') RETURNING kind, seq),"
            + " u AS (SELECT * FROM unnest(CAST(:vkinds AS text[]), CAST(:ids AS text[]), CAST(:offs AS integer[]),"
            + " CAST(:lens AS integer[])) AS u(kind, id, off, len)),"
            + " alive AS (DELETE FROM vector_tombstones t USING u, head WHERE t.namespace = :ns AND t.kind = u.kind"
            + " AND t.id = u.id AND head.kind = u.kind),"
            + " put AS (INSERT INTO vectors(namespace, kind, id, dim, vec, seq)"
            + " SELECT :ns, u.kind, u.id, u.len / 4, substring(CAST(:vecs AS bytea) FROM u.off + 1 FOR u.len), head.seq"
            + " FROM u JOIN head ON head.kind = u.kind"
            + " ON CONFLICT (namespace, kind, id) DO UPDATE SET dim = EXCLUDED.dim, vec = EXCLUDED.vec, seq = EXCLUDED.seq)"
            + " SELECT (SELECT kind FROM clash ORDER BY kind LIMIT 1), (SELECT dim FROM clash ORDER BY kind LIMIT 1),"
            + " (SELECT COUNT(*) FROM head), set_config('synchronous_commit', 'off', true)")
        .bind("ns", Columns.text(ns)).bindArray("kinds", String.class, kinds)
        .bindArray("dims", Integer.class, kindDims).bindArray("vkinds", String.class, vectorKinds)
        .bindArray("ids", String.class, ids).bindArray("offs", Integer.class, offsets)
        .bindArray("lens", Integer.class, lengths).bind("vecs", all.array())
        .map((rs, ctx) -> new Clash(rs.getString(1), rs.getInt(2))).one();
    if (clash.kind() != null) {
      throw new IllegalArgumentException("vectors of kind '" + clash.kind() + "' have dimension "
          + dims.get(clash.kind()) + " but the index holds dimension " + clash.stored());
    }
  }

  /** Removes ids and leaves a tombstone for each one that was stored; returns how many. */
  int remove(Handle h, String ns, String kind, List<String> ids) {
    long seq = nextChange(h, ns, kind);
    int removed = 0;
    for (int i = 0; i < ids.size(); i += IN_CHUNK) {
      removed += h.createUpdate("WITH gone AS (DELETE FROM vectors WHERE namespace = :ns AND kind = :kind"
              + " AND id = ANY(:ids) RETURNING id) INSERT INTO vector_tombstones(namespace, kind, id, seq)"
              + " SELECT :ns, :kind, id, :seq FROM gone ON CONFLICT (namespace, kind, id) DO UPDATE SET seq = EXCLUDED.seq")
          .bind("ns", Columns.text(ns)).bind("kind", kind).bind("seq", seq)
          .bindArray("ids", String.class, stored(ids.subList(i, Math.min(ids.size(), i + IN_CHUNK)))).execute();
    }
    return removed;
  }

  /** Removes every vector of the namespace; its heads move to a new epoch. */
  void forget(Handle h, String ns) {
    h.createUpdate("UPDATE vector_heads SET epoch = epoch + 1, seq = nextval('vector_changes') WHERE namespace = :ns")
        .bind("ns", Columns.text(ns)).execute();
    h.createUpdate("DELETE FROM vectors WHERE namespace = :ns").bind("ns", Columns.text(ns)).execute();
    h.createUpdate("DELETE FROM vector_tombstones WHERE namespace = :ns").bind("ns", Columns.text(ns)).execute();
  }

  /** The head of one index, or null when nothing was ever written to it. */
  Head head(Handle h, String ns, String kind) {
    return h.createQuery("SELECT epoch, seq, " + SERVER_RUN + " FROM vector_heads WHERE namespace = :ns AND kind = :kind")
        .bind("ns", Columns.text(ns)).bind("kind", kind)
        .map((rs, ctx) -> new Head(rs.getLong(1), rs.getLong(2), rs.getString(3))).findOne().orElse(null);
  }

  /** The heads of several indexes of one namespace in one statement; a kind never written is absent. */
  Map<String, Head> heads(Handle h, String ns, List<String> kinds) {
    Map<String, Head> out = new LinkedHashMap<>();
    h.createQuery("SELECT kind, epoch, seq, " + SERVER_RUN + " FROM vector_heads WHERE namespace = :ns AND kind = ANY(:kinds)")
        .bind("ns", Columns.text(ns)).bindArray("kinds", String.class, kinds)
        .map((rs, ctx) -> Map.entry(rs.getString(1), new Head(rs.getLong(2), rs.getLong(3), rs.getString(4))))
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /** What {@link #catchUp} read: the index's head (null: never written) and the changes up to it. */
  record CatchUp(Head head, Changes changes) {}

  /**
   * The head of one index and, when its epoch is still {@code epoch}, its changes numbered in
   * {@code (after, head]}, in one statement run in autocommit: one round trip, where the head and
   * the changes read in a snapshot took five (the isolation setting, the head, the vectors, the
   * tombstones, the commit; round twenty-one, docs/measurements.md §6). One statement reads one
   * snapshot, so the changes are exactly those a snapshot showing that head shows (the class
   * comment); when the epoch moved, or the server restarted since the copy was read ({@code server},
   * see {@link Head}), only the head is returned and the caller reloads.
   */
  CatchUp catchUp(Handle h, String ns, String kind, long epoch, String server, long after) {
    Map<String, float[]> upserts = new LinkedHashMap<>();
    List<String> removals = new ArrayList<>();
    Head[] head = {null};
    h.createQuery("WITH h AS (SELECT epoch, seq, " + SERVER_RUN + " AS server FROM vector_heads"
            + " WHERE namespace = :ns AND kind = :kind)"
            + " SELECT 0 AS part, NULL::text AS id, NULL::bytea AS vec, h.epoch, h.seq, h.server FROM h"
            + " UNION ALL SELECT 1, v.id, v.vec, 0, 0, NULL FROM h, vectors v WHERE h.epoch = :epoch"
            + " AND h.server = :server"
            + " AND v.namespace = :ns AND v.kind = :kind AND v.seq > :after AND v.seq <= h.seq"
            + " UNION ALL SELECT 2, t.id, NULL, 0, 0, NULL FROM h, vector_tombstones t WHERE h.epoch = :epoch"
            + " AND h.server = :server"
            + " AND t.namespace = :ns AND t.kind = :kind AND t.seq > :after AND t.seq <= h.seq")
        .bind("ns", Columns.text(ns)).bind("kind", kind).bind("epoch", epoch).bind("server", server)
        .bind("after", after)
        .map((rs, ctx) -> {
          switch (rs.getInt(1)) {
            case 0 -> head[0] = new Head(rs.getLong(4), rs.getLong(5), rs.getString(6));
            case 1 -> upserts.put(Columns.untext(rs.getString(2)), decode(rs.getBytes(3)));
            default -> removals.add(Columns.untext(rs.getString(2)));
          }
          return Boolean.TRUE;
        }).forEach(done -> {});
    return new CatchUp(head[0], new Changes(upserts, removals));
  }

  /** How many changes lie after a number; a cheap test of whether replaying beats reloading. */
  int countSince(Handle h, String ns, String kind, long after) {
    return h.createQuery("SELECT (SELECT COUNT(*) FROM vectors WHERE namespace = :ns AND kind = :kind AND seq > :after)"
            + " + (SELECT COUNT(*) FROM vector_tombstones WHERE namespace = :ns AND kind = :kind AND seq > :after)")
        .bind("ns", Columns.text(ns)).bind("kind", kind).bind("after", after).mapTo(Integer.class).one();
  }

  Map<String, float[]> all(Handle h, String ns, String kind) {
    Map<String, float[]> all = new LinkedHashMap<>();
    h.createQuery("SELECT id, vec FROM vectors WHERE namespace = :ns AND kind = :kind")
        .bind("ns", Columns.text(ns)).bind("kind", kind).setFetchSize(2000)
        .map((rs, ctx) -> Map.entry(Columns.untext(rs.getString(1)), decode(rs.getBytes(2))))
        .forEach(e -> all.put(e.getKey(), e.getValue()));
    return all;
  }

  int count(Handle h, String ns, String kind) {
    return h.createQuery("SELECT COUNT(*) FROM vectors WHERE namespace = :ns AND kind = :kind")
        .bind("ns", Columns.text(ns)).bind("kind", kind).mapTo(Integer.class).one();
  }

  /** The kinds of the namespace that ever held a vector. */
  List<String> kinds(Handle h, String ns) {
    return new ArrayList<>(h.createQuery("SELECT kind FROM vector_heads WHERE namespace = :ns")
        .bind("ns", Columns.text(ns)).mapTo(String.class).list());
  }

  /** Names and ids as stored: PostgreSQL text cannot hold NUL, so it is escaped (see {@link Columns#text}). */
  private static List<String> stored(List<String> ids) {
    return ids.stream().map(Columns::text).toList();
  }

  static List<String> distinct(Collection<String> ids) {
    return List.copyOf(new java.util.LinkedHashSet<>(ids));
  }
}
