package dev.lychee.core.testing;

import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.SegmentLog;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes records and nodes into a store the only way the storage SPIs take them: as the encoding
 * of a segment ({@link SegmentLog#commitEncoding}). Tests that only need records in place use a
 * segment of their own session {@link #SESSION}, one per call, so it never collides with the
 * segments a test asserts on; tests that care pass their own segment.
 */
public final class StoreWrites {
  private StoreWrites() {}

  /** The session of the segments {@link #encode(SegmentLog, String, List, List)} creates (it holds no turns). */
  public static final String SESSION = "fixture-encoding";

  private static final AtomicInteger NEXT = new AtomicInteger();

  /** Commits records and nodes as the encoding of a fresh segment of {@link #SESSION}. */
  public static void encode(SegmentLog store, String namespace, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    RawTurn marker = new RawTurn(namespace, TurnRef.of(SESSION, NEXT.getAndIncrement()), Role.SYSTEM, null, "", null);
    Segment segment = new Segment(namespace, SESSION, List.of(marker), 1, 0, CloseReason.SESSION_FLUSH,
        Double.NaN, Double.NaN);
    encode(store, segment, records, nodes);
  }

  /** Commits records and nodes as the encoding of {@code segment}, storing the segment first. */
  public static void encode(SegmentLog store, Segment segment, List<MemoryRecord> records, List<EvidenceNode> nodes) {
    store.putSegment(segment, SegmentState.PENDING);
    store.commitEncoding(segment.namespace(), segment.id(), records, nodes);
  }

  /** Commits records as the encoding of a fresh segment. */
  public static void records(SegmentLog store, String namespace, List<MemoryRecord> records) {
    encode(store, namespace, records, List.of());
  }

  /** Commits nodes as the encoding of a fresh segment. */
  public static void nodes(SegmentLog store, String namespace, List<EvidenceNode> nodes) {
    encode(store, namespace, List.of(), nodes);
  }
}
