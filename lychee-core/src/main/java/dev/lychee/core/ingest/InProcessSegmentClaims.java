package dev.lychee.core.ingest;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentClaim;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.SegmentClaims;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The default {@link SegmentClaims}: claims live in this process's memory, so it coordinates the
 * threads of one process over a store that no other process writes. Attempt counts are kept in
 * memory too (a restart starts them again at 0); the error text of a failed attempt is written to
 * the store with the segment's PENDING state.
 *
 * <p>{@link #claim(Segment, String, Duration)} reads nothing from the store: it trusts that the
 * segment is PENDING and the session's earliest pending one, as the background queue offers
 * segments in session order and never twice.
 */
@Singleton
public final class InProcessSegmentClaims implements SegmentClaims {
  private final RecordStore store;
  private final Clock clock;
  private final Map<SessionKey, SegmentClaim> bySession = new HashMap<>();
  private final Map<SegmentRef, Integer> attempts = new HashMap<>();

  private record SegmentRef(String namespace, String segmentId) {}

  @Inject
  public InProcessSegmentClaims(RecordStore store) {
    this(store, Clock.systemUTC());
  }

  InProcessSegmentClaims(RecordStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  @Override
  public Optional<SegmentClaim> claimNext(String namespace, String owner, Duration lease) {
    // the pending reads only: their cost follows the work waiting, not the store's history
    List<String> namespaces = namespace == null ? store.pendingNamespaces() : List.of(namespace);
    for (String ns : namespaces) {
      Set<String> sessionsSeen = new HashSet<>();
      for (StoredSegment s : store.pendingSegments(ns)) {
        if (s.state() == SegmentState.ENCODED || !sessionsSeen.add(s.segment().session())) {
          continue;
        }
        Optional<SegmentClaim> c = take(s.segment(), owner, lease);
        if (c.isPresent()) {
          return c;
        }
      }
    }
    return Optional.empty();
  }

  @Override
  public Optional<SegmentClaim> claim(Segment segment, String owner, Duration lease) {
    return take(segment, owner, lease);
  }

  private synchronized Optional<SegmentClaim> take(Segment segment, String owner, Duration lease) {
    SessionKey key = new SessionKey(segment.namespace(), segment.session());
    Instant now = clock.instant();
    SegmentClaim held = bySession.get(key);
    if (held != null && held.leaseUntil().isAfter(now) && !held.segmentId().equals(segment.id())) {
      return Optional.empty();
    }
    if (held != null && held.leaseUntil().isAfter(now) && !held.owner().equals(owner)) {
      return Optional.empty();
    }
    int tried = attempts.getOrDefault(new SegmentRef(segment.namespace(), segment.id()), 0);
    SegmentClaim claim = new SegmentClaim(segment, owner, now.plus(lease), tried);
    bySession.put(key, claim);
    return Optional.of(claim);
  }

  /**
   * Commits while holding this object's monitor, so no other thread of the process can take the
   * claim between the check and the commit.
   */
  @Override
  public synchronized boolean commitClaimed(SegmentClaim claim, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    SegmentClaim held = bySession.get(new SessionKey(claim.namespace(), claim.segment().session()));
    if (held != null && !(held.owner().equals(claim.owner()) && held.segmentId().equals(claim.segmentId()))) {
      return false;
    }
    store.commitEncoding(claim.namespace(), claim.segmentId(), records, nodes);
    return complete(claim);
  }

  @Override
  public synchronized boolean complete(SegmentClaim claim) {
    SessionKey key = new SessionKey(claim.namespace(), claim.segment().session());
    attempts.remove(new SegmentRef(claim.namespace(), claim.segmentId()));
    SegmentClaim held = bySession.get(key);
    if (held != null && held.owner().equals(claim.owner()) && held.segmentId().equals(claim.segmentId())) {
      bySession.remove(key);
      return true;
    }
    return held == null;
  }

  @Override
  public void release(SegmentClaim claim, String error) {
    synchronized (this) {
      attempts.merge(new SegmentRef(claim.namespace(), claim.segmentId()), 1, Integer::sum);
      SessionKey key = new SessionKey(claim.namespace(), claim.segment().session());
      SegmentClaim held = bySession.get(key);
      if (held != null && held.owner().equals(claim.owner())) {
        bySession.remove(key);
      }
    }
    store.setSegmentState(claim.namespace(), claim.segmentId(), SegmentState.PENDING, error);
  }

  @Override
  public synchronized int attempts(String namespace, String segmentId) {
    return attempts.getOrDefault(new SegmentRef(namespace, segmentId), 0);
  }
}
