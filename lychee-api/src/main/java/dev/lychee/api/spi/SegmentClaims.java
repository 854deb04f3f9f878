package dev.lychee.api.spi;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Who encodes which pending segment next. The background encoder claims a segment before encoding
 * it, commits the encoding through {@link #commitClaimed} (which ends the claim), and releases it
 * after a failed attempt.
 * The default implementation coordinates the threads of one process; a store shared by several
 * processes (PostgreSQL) supplies one that coordinates them through the database.
 *
 * <p>Contract:
 * <ul>
 *   <li><b>Per-session order.</b> Only the earliest segment of a session that is not ENCODED may be
 *       claimed, and only while no other live claim exists in that session: segment n+1's
 *       reference context depends on segment n.</li>
 *   <li><b>Exclusivity.</b> A live (unexpired) claim is held by one owner; a lapsed one may be taken
 *       again by anyone, with its attempt count kept.</li>
 *   <li><b>Durability of failure.</b> {@link #release} keeps the segment PENDING, adds one to its
 *       attempt count and keeps the error text.</li>
 * </ul>
 */
public interface SegmentClaims {

  /**
   * Claims the next encodable segment of a namespace, or of any namespace when {@code namespace}
   * is null.
   *
   * @return empty when nothing is claimable now
   */
  Optional<SegmentClaim> claimNext(String namespace, String owner, Duration lease);

  /**
   * Claims one given segment (the caller, for example the in-process queue, holds it already).
   *
   * @return empty when it is not PENDING any more, or another owner holds a live claim in its
   *     session
   */
  Optional<SegmentClaim> claim(Segment segment, String owner, Duration lease);

  /**
   * Commits a claimed segment's encoding and ends the claim, fenced: the records and nodes are
   * written (with the segment becoming ENCODED, as {@link RecordStore#commitEncoding}) only while
   * {@code claim} is still held, atomically with that check, so an owner whose lease lapsed can
   * never commit a second encoding beside the new owner's.
   *
   * @return false when the claim was lost: nothing was written
   */
  boolean commitClaimed(SegmentClaim claim, List<MemoryRecord> records, List<EvidenceNode> nodes);

  /**
   * Ends a claim whose encoding was committed otherwise (without {@link #commitClaimed}).
   *
   * @return false when the claim had lapsed and another owner took the segment meanwhile
   */
  boolean complete(SegmentClaim claim);

  /** Ends a claim after a failed attempt; the segment stays PENDING with {@code error} kept. */
  void release(SegmentClaim claim, String error);

  /** Attempts made so far on a segment (0 when unknown or never tried). */
  int attempts(String namespace, String segmentId);
}
