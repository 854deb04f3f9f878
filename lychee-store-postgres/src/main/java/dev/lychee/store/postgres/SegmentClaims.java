package dev.lychee.store.postgres;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * PENDING segments as a durable work queue shared by instances. {@link #claim} takes the oldest
 * unclaimed (or expired) PENDING segment with {@code SELECT ... FOR UPDATE SKIP LOCKED}, so two
 * instances never take the same one, stamps it with the owner and a lease, and counts the attempt.
 * A holder that dies simply stops renewing: once the lease has passed, the next {@link #claim}
 * takes the segment over. {@link #commit} writes the encoding only while the caller still holds
 * the claim, so a segment is encoded once even when a slow holder's lease ran out.
 */
public final class SegmentClaims {
  /**
   * A held claim.
   *
   * @param segment the claimed segment as stored
   * @param owner who holds it
   * @param expires when the lease ends unless renewed
   * @param attempt how many claims the segment has seen, this one included
   */
  public record Claim(StoredSegment segment, String owner, Instant expires, int attempt) {
    public Claim {
      Objects.requireNonNull(segment, "segment");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(expires, "expires");
    }

    public String namespace() {
      return segment.segment().namespace();
    }

    public String segmentId() {
      return segment.segment().id();
    }
  }

  private final PostgresDatabase db;
  private final RecordTable records = new RecordTable();
  private final NodeTable nodes = new NodeTable();
  private final SegmentTable segments = new SegmentTable();

  @Inject
  public SegmentClaims(PostgresDatabase db) {
    this.db = Objects.requireNonNull(db, "db");
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

  /**
   * Claims the oldest PENDING segment that nobody holds (or whose lease has passed).
   *
   * @param namespace only this namespace; null for any
   */
  public Optional<Claim> claim(String namespace, String owner, Duration lease) {
    checkOwnerAndLease(owner, lease);
    if (namespace != null && namespace.isBlank()) {
      throw new IllegalArgumentException("namespace must not be blank");
    }
    String sql = "UPDATE segments s SET claimed_by = :owner,"
        + " claim_expires = now() + make_interval(secs => :secs), attempts = attempts + 1"
        + " FROM (SELECT namespace, id FROM segments WHERE state = 'PENDING'"
        + (namespace == null ? "" : " AND namespace = :ns")
        + " AND (claim_expires IS NULL OR claim_expires < now()) ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED) c"
        + " WHERE s.namespace = c.namespace AND s.id = c.id"
        + " RETURNING s." + SegmentTable.COLUMNS.replace(", ", ", s.") + ", s.claim_expires, s.attempts";
    return db.write(h -> {
      var q = h.createQuery(sql).bind("owner", owner).bind("secs", lease.toMillis() / 1000.0);
      if (namespace != null) {
        q.bind("ns", namespace);
      }
      return q.map((rs, ctx) -> new Claim(SegmentTable.map(rs, ctx), owner,
          rs.getObject("claim_expires", OffsetDateTime.class).toInstant(), rs.getInt("attempts"))).findOne();
    });
  }

  /** Extends a held claim; false when the caller no longer holds it. */
  public boolean renew(Claim claim, Duration lease) {
    checkOwnerAndLease(claim.owner(), lease);
    return db.write(h -> h.createUpdate("UPDATE segments SET claim_expires = now() + make_interval(secs => :secs)"
            + " WHERE namespace = :ns AND id = :id AND claimed_by = :owner AND state = 'PENDING'")
        .bind("secs", lease.toMillis() / 1000.0).bind("ns", claim.namespace()).bind("id", claim.segmentId())
        .bind("owner", claim.owner()).execute() == 1);
  }

  /**
   * Commits the claimed segment's encoding (records, nodes, state ENCODED) in one transaction, if
   * the caller still holds the claim.
   *
   * @return false, writing nothing, when another instance has taken the segment over or it is no
   *     longer PENDING
   */
  public boolean commit(Claim claim, List<MemoryRecord> recs, List<EvidenceNode> list) {
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
      int held = h.createUpdate("UPDATE segments SET state = 'ENCODED', error = NULL, claimed_by = NULL,"
              + " claim_expires = NULL WHERE namespace = :ns AND id = :id AND claimed_by = :owner AND state = 'PENDING'")
          .bind("ns", claim.namespace()).bind("id", claim.segmentId()).bind("owner", claim.owner()).execute();
      if (held == 0) {
        return false;
      }
      r.forEach(x -> records.put(h, x));
      n.forEach(x -> nodes.put(h, x));
      return true;
    });
  }

  /** Gives a claim back after a failed attempt: the segment stays PENDING with the error kept. */
  public boolean release(Claim claim, String error) {
    Objects.requireNonNull(claim, "claim");
    return db.write(h -> h.createUpdate("UPDATE segments SET error = :error, claimed_by = NULL, claim_expires = NULL"
            + " WHERE namespace = :ns AND id = :id AND claimed_by = :owner AND state = 'PENDING'")
        .bind("error", Columns.text(error)).bind("ns", claim.namespace()).bind("id", claim.segmentId())
        .bind("owner", claim.owner()).execute() == 1);
  }

  /** How many claims the segment has seen (the durable attempt count); 0 for an unknown segment. */
  public int attempts(String namespace, String segmentId) {
    return db.read(h -> segments.attempts(h, namespace, segmentId));
  }

  /** Marks a segment FAILED for good (for example after too many attempts), dropping any claim. */
  public void fail(String namespace, String segmentId, String error) {
    db.write(h -> {
      segments.setState(h, namespace, segmentId, SegmentState.FAILED, error);
      return null;
    });
  }
}
