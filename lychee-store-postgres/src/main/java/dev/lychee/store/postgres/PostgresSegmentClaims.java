package dev.lychee.store.postgres;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.CompositeKey;
import dev.lychee.api.spi.SegmentClaims;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * PENDING segments as a durable work queue that every instance on the database shares: the
 * {@link SegmentClaims} that core's background encoder uses when this store is bound.
 *
 * <p>A claim is two columns of the segment's row ({@code claimed_by}, {@code claim_expires}, on the
 * server's clock) and a durable attempt count. Every claim runs in one transaction holding a
 * transaction-scoped advisory lock on its session, so at most one live claim exists per session
 * across instances, which keeps encoding in session order. {@link #claimNext} only offers a
 * session's earliest segment that is not ENCODED and skips sessions another instance is locking
 * ({@code pg_try_advisory_xact_lock}, the session-level counterpart of {@code SKIP LOCKED}). A holder
 * that dies stops renewing: once its lease has passed anyone may take the segment over, with the
 * attempt count kept. {@link #commitClaimed} writes the encoding only while the caller still holds
 * its claim, checked in the same transaction, so a segment is encoded once even when a slow holder's
 * lease ran out.
 *
 * <p>Attempts count claims taken (a lapsed claim of a dead instance counts as an attempt), so a
 * segment that kills its encoder every time still runs out of attempts.
 */
public final class PostgresSegmentClaims implements SegmentClaims {
  /** First key of the advisory locks this store takes (the second is the session's hash). */
  private static final int LOCK_CLASS = 0x4c796368; // "Lych"
  private static final int CANDIDATES = 16;
  private static final long POLL_MILLIS = 200;

  private final PostgresDatabase db;
  private final Duration claimWait;
  private final RecordTable records = new RecordTable();
  private final NodeTable nodes = new NodeTable();
  private final SegmentTable segments = new SegmentTable();

  @Inject
  public PostgresSegmentClaims(PostgresDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
    this.claimWait = db.config().claimWait();
  }

  private static void checkOwnerAndLease(String owner, Duration lease) {
    Objects.requireNonNull(owner, "owner");
    if (owner.isBlank()) {
      throw new IllegalArgumentException("owner must not be blank");
    }
    Objects.requireNonNull(lease, "lease");
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be > 0: " + lease);
    }
  }

  /** Why a claim could not be taken. */
  private enum Refusal { NONE, SESSION_BUSY, NOT_CLAIMABLE }

  private record Outcome(SegmentClaim claim, Refusal refusal) {}

  @Override
  public Optional<SegmentClaim> claimNext(String namespace, String owner, Duration lease) {
    checkOwnerAndLease(owner, lease);
    if (namespace != null) {
      PostgresRecordStore.name(namespace, "namespace");
    }
    String sql = claimNextQuery(namespace != null);
    List<StoredSegment> heads = db.read(h -> {
      var q = h.createQuery(sql);
      if (namespace != null) {
        q.bind("ns", namespace);
      }
      return q.map(SegmentTable::map).list();
    });
    for (StoredSegment head : heads) {
      Outcome o = take(head.segment(), owner, lease, true);
      if (o.claim() != null) {
        return Optional.of(o.claim());
      }
    }
    return Optional.empty();
  }

  /**
   * The candidates of {@link #claimNext}: unclaimed segments that are not ENCODED, in a session
   * with no live claim and no earlier segment left to encode, oldest first. Two NOT EXISTS rather
   * than one with an OR, so that each can use its partial index (migration 2).
   */
  static String claimNextQuery(boolean oneNamespace) {
    return "SELECT " + SegmentTable.COLUMNS + " FROM segments h WHERE h.state <> 'ENCODED'"
        + (oneNamespace ? " AND h.namespace = :ns" : "")
        + " AND (h.claim_expires IS NULL OR h.claim_expires <= now())"
        + " AND NOT EXISTS (SELECT 1 FROM segments e WHERE e.namespace = h.namespace AND e.session = h.session"
        + " AND e.id <> h.id AND e.claim_expires > now())"
        + " AND NOT EXISTS (SELECT 1 FROM segments e WHERE e.namespace = h.namespace AND e.session = h.session"
        + " AND e.state <> 'ENCODED' AND (e.first_idx, e.last_idx) < (h.first_idx, h.last_idx))"
        + " ORDER BY h.seq LIMIT " + CANDIDATES;
  }

  /**
   * Claims the segment; while another owner holds a live claim in its session, waits up to {@link
   * PostgresStoreConfig#claimWait()} for it to end.
   */
  @Override
  public Optional<SegmentClaim> claim(Segment segment, String owner, Duration lease) {
    Objects.requireNonNull(segment, "segment");
    checkOwnerAndLease(owner, lease);
    long deadline = System.nanoTime() + claimWait.toNanos();
    while (true) {
      Outcome o = take(segment, owner, lease, false);
      if (o.refusal() != Refusal.SESSION_BUSY || System.nanoTime() >= deadline) {
        return Optional.ofNullable(o.claim());
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
  }

  /**
   * One attempt at a claim, in one transaction under the session's advisory lock: refused while
   * another claim in the session is live (the caller's own live claim on this segment is renewed),
   * or when the segment is ENCODED or gone.
   *
   * <p>One statement in autocommit, the function of migration 5, whose commit does not wait for the
   * WAL flush. Why (round twenty, docs/measurements.md §6): the lock, the busy check, the claim and
   * a synced {@code COMMIT} were four round trips and a flush wait on the encoder's thread for every
   * segment. The flush is not needed: a claim is no data of the user's. It is made durable by the
   * next synced commit (the segment's {@link #commitClaimed}, a flush covers every earlier WAL
   * record), and a claim lost in a server crash before that leaves the segment as it was before
   * the claim, PENDING and claimable; the holder's {@link #commitClaimed} then finds no claim and
   * writes nothing, and the segment is encoded again, which its attempt count (lost with the claim)
   * does not block.
   *
   * @param headOnly also refuse when an earlier segment of the session is not ENCODED, and skip
   *     (instead of waiting for) a session another transaction is locking
   */
  private Outcome take(Segment segment, String owner, Duration lease, boolean headOnly) {
    return db.writeStatement(h -> h.createQuery("SELECT c.o_refusal, c.o_expires, c.o_attempts,"
            + " set_config('synchronous_commit', 'off', true)"
            + " FROM segment_claim(:ns, :s, :id, :owner, :secs, :c, :k, :head) c")
        .bind("ns", segment.namespace()).bind("s", segment.session()).bind("id", segment.id())
        .bind("owner", owner).bind("secs", lease.toMillis() / 1000.0).bind("c", LOCK_CLASS)
        .bind("k", CompositeKey.of(segment.namespace(), segment.session()).hashCode()).bind("head", headOnly)
        .map((rs, ctx) -> {
          Refusal refusal = Refusal.valueOf(rs.getString(1));
          return refusal != Refusal.NONE ? new Outcome(null, refusal)
              : new Outcome(new SegmentClaim(segment, owner, rs.getObject(2, OffsetDateTime.class).toInstant(),
                  Math.max(0, rs.getInt(3) - 1)), Refusal.NONE);
        }).one());
  }

  /** Extends a held claim; false when the caller no longer holds it. */
  public boolean renew(SegmentClaim claim, Duration lease) {
    Objects.requireNonNull(claim, "claim");
    checkOwnerAndLease(claim.owner(), lease);
    return db.write(h -> h.createUpdate("UPDATE segments SET claim_expires = now() + make_interval(secs => :secs)"
            + " WHERE namespace = :ns AND id = :id AND claimed_by = :owner AND claim_expires > now()"
            + " AND state <> 'ENCODED'")
        .bind("secs", lease.toMillis() / 1000.0).bind("ns", claim.namespace()).bind("id", claim.segmentId())
        .bind("owner", claim.owner()).execute() == 1);
  }

  /**
   * Commits the claimed segment's encoding (records, nodes, state ENCODED) in one transaction, if
   * the caller still holds the claim. A lapsed claim that nobody has taken over still counts as
   * held: the work is done, and nobody else has started it.
   *
   * <p>Four round trips ({@link Pipeline}): the claim's end with the locking read of the stored
   * records, the records' inserts and rewrites with the locking read of the stored nodes, the
   * nodes' inserts and rewrites, then {@code COMMIT}. Why (round twenty-one, docs/measurements.md
   * §6): one after another they were eight, on the encoder's thread for every segment. The nodes
   * are locked after the records' writes, as before, so that the nodes every segment merges into
   * stay locked no longer ({@link MergingRows#writeInTurn}). When the claim is not held the locks
   * the read took are released by the commit, and nothing is written.
   *
   * @return false, writing nothing, when another owner has taken the segment over or it is
   *     ENCODED already
   */
  @Override
  public boolean commitClaimed(SegmentClaim claim, List<MemoryRecord> recs, List<EvidenceNode> list) {
    Objects.requireNonNull(claim, "claim");
    List<MemoryRecord> r = List.copyOf(recs);
    List<EvidenceNode> n = List.copyOf(list);
    for (MemoryRecord m : r) {
      if (!m.namespace().equals(claim.namespace())) {
        throw new IllegalArgumentException("record " + m.id() + " belongs to namespace '" + m.namespace() + "'");
      }
    }
    for (EvidenceNode e : n) {
      if (!e.namespace().equals(claim.namespace())) {
        throw new IllegalArgumentException("node " + e.id() + " belongs to namespace '" + e.namespace() + "'");
      }
    }
    return db.write(h -> {
      List<MergingRows<?>.Put> puts = List.of(records.rows.put(r), nodes.rows.put(n));
      Pipeline first = new Pipeline();
      Pipeline.Step<Integer> ended = first.update(ENCODED, p -> bindClaim(p, claim));
      puts.get(0).lock(first);
      first.run(h);
      if (ended.get() == 0) {
        return false;
      }
      MergingRows.writeInTurn(h, puts);
      return true;
    });
  }

  /** The end of a held claim whose encoding is committed with it. */
  private static final String ENCODED = "UPDATE segments SET state = 'ENCODED', error = NULL, claimed_by = NULL,"
      + " claim_expires = NULL WHERE namespace = :ns AND id = :id AND claimed_by = :owner AND state <> 'ENCODED'";

  private static void bindClaim(Params p, SegmentClaim claim) {
    p.bind("ns", claim.namespace()).bind("id", claim.segmentId()).bind("owner", claim.owner());
  }

  /**
   * Ends a claim whose encoding the caller committed otherwise.
   *
   * @return false when the claim had lapsed and another owner holds the segment now
   */
  @Override
  public boolean complete(SegmentClaim claim) {
    Objects.requireNonNull(claim, "claim");
    return db.write(h -> h.createUpdate("UPDATE segments SET claimed_by = NULL, claim_expires = NULL"
            + " WHERE namespace = :ns AND id = :id AND claimed_by = :owner")
        .bind("ns", claim.namespace()).bind("id", claim.segmentId()).bind("owner", claim.owner()).execute() == 1
        || h.createQuery("SELECT COUNT(*) FROM segments WHERE namespace = :ns AND id = :id AND claimed_by IS NOT NULL")
            .bind("ns", claim.namespace()).bind("id", claim.segmentId()).mapTo(Integer.class).one() == 0);
  }

  /** Gives a claim back after a failed attempt: the segment is PENDING with the error kept. */
  @Override
  public void release(SegmentClaim claim, String error) {
    Objects.requireNonNull(claim, "claim");
    db.write(h -> {
      h.createUpdate("UPDATE segments SET state = 'PENDING', error = :error, claimed_by = NULL,"
              + " claim_expires = NULL WHERE namespace = :ns AND id = :id AND claimed_by = :owner AND state <> 'ENCODED'")
          .bind("error", Columns.text(error)).bind("ns", claim.namespace()).bind("id", claim.segmentId())
          .bind("owner", claim.owner()).execute();
      return null;
    });
  }

  /** Claims taken on the segment so far (the durable attempt count); 0 for an unknown segment. */
  @Override
  public int attempts(String namespace, String segmentId) {
    return db.read(h -> segments.attempts(h, namespace, segmentId));
  }
}
