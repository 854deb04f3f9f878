package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.node;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.CloseReason;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of {@link dev.lychee.api.spi.SegmentLog}: the segment log: states and order survive, and an encoding commits records, nodes and the state together or not at all.
 * {@link BaseRecordStoreTestCase} runs it against every backend; random data comes from fixed
 * seeds so that a failure reproduces.
 */
public abstract class BaseSegmentLogTestCase extends StoreCase {

  @Test
  void segmentsKeepStatesAndOrder() {
    List<RawTurn> s2 = new ArrayList<>();
    List<RawTurn> s1 = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      s1.add(turn("ns", "s1", i, "one " + i));
      s2.add(turn("ns", "s2", i, "two " + i));
    }
    store.appendTurns("ns", "s2", s2);
    store.appendTurns("ns", "s1", s1);
    Segment a = segment(s2.subList(4, 12), CloseReason.SESSION_FLUSH);
    Segment b = segment(s2.subList(0, 4), CloseReason.SEMANTIC_BOUNDARY);
    Segment c = segment(s1.subList(0, 6), CloseReason.TARGET_LENGTH);
    store.putSegment(a, SegmentState.PENDING);
    store.putSegment(b, SegmentState.ENCODED);
    store.putSegment(c, SegmentState.PENDING);
    assertThat(store.segmentedThrough("ns", "s2")).isEqualTo(11);
    assertThat(store.segmentedThrough("ns", "s1")).isEqualTo(5);
    assertThat(store.segmentedThrough("ns", "s3")).isEqualTo(-1);
    assertThat(store.segmentedThrough("other", "s1")).isEqualTo(-1);

    store.setSegmentState("ns", a.id(), SegmentState.FAILED, "model timed out");
    reopenIfSupported();
    List<StoredSegment> all = store.segments("ns");
    assertThat(all).extracting(x -> x.segment().id()).containsExactly(c.id(), b.id(), a.id());
    assertThat(all.get(0)).isEqualTo(new StoredSegment(c, SegmentState.PENDING, null));
    assertThat(all.get(1)).isEqualTo(new StoredSegment(b, SegmentState.ENCODED, null));
    assertThat(all.get(2)).isEqualTo(new StoredSegment(a, SegmentState.FAILED, "model timed out"));
    assertThat(all.get(1).segment().score()).isEqualTo(1.5);
    assertThat(all.get(0).segment().score()).isNaN();

    store.setSegmentState("ns", a.id(), SegmentState.PENDING, null);
    assertThat(store.segments("ns").get(2).state()).isEqualTo(SegmentState.PENDING);
    assertThat(store.segments("ns").get(2).error()).isNull();

    // putting the same segment again is refused and leaves its state as it is
    store.setSegmentState("ns", a.id(), SegmentState.ENCODED, null);
    assertThat(store.putSegment(a, SegmentState.PENDING)).isFalse();
    assertThat(store.segments("ns")).hasSize(3);
    assertThat(store.segments("ns").get(2).state()).isEqualTo(SegmentState.ENCODED);

    assertThatThrownBy(() -> store.setSegmentState("ns", "s9:0-1", SegmentState.ENCODED, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.setSegmentState("other", a.id(), SegmentState.ENCODED, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Review C F8: the reads of pending work ({@code pendingSegments}, {@code pendingNamespaces})
   * return exactly the segments {@code segments} lists in a state other than ENCODED, in its order,
   * one namespace at a time, and follow state changes.
   */
  @Test
  void pendingSegmentsAreExactlyTheOnesNotEncodedInOrderAndPerNamespace() {
    List<RawTurn> s1 = new ArrayList<>();
    List<RawTurn> s2 = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      s1.add(turn("ns", "s1", i, "one " + i));
      s2.add(turn("ns", "s2", i, "two " + i));
    }
    store.appendTurns("ns", "s2", s2);
    store.appendTurns("ns", "s1", s1);
    Segment encoded = segment(s2.subList(0, 3), CloseReason.SEMANTIC_BOUNDARY);
    Segment waiting = segment(s2.subList(3, 6), CloseReason.TARGET_LENGTH);
    Segment failed = segment(s2.subList(6, 9), CloseReason.SESSION_FLUSH);
    Segment first = segment(s1.subList(0, 4), CloseReason.TARGET_LENGTH);
    Segment done = segment(s1.subList(4, 9), CloseReason.SESSION_FLUSH);
    store.putSegment(failed, SegmentState.PENDING);
    store.putSegment(encoded, SegmentState.ENCODED);
    store.putSegment(first, SegmentState.PENDING);
    store.putSegment(waiting, SegmentState.PENDING);
    store.putSegment(done, SegmentState.PENDING);
    store.commitEncoding("ns", done.id(), List.of(), List.of());
    store.setSegmentState("ns", failed.id(), SegmentState.FAILED, "model timed out");
    // a namespace with encoded segments only, and one with a pending segment
    RawTurn o = turn("quiet", "s", 0, "all encoded");
    store.appendTurns("quiet", "s", List.of(o));
    Segment quiet = segment(List.of(o), CloseReason.SESSION_FLUSH);
    store.putSegment(quiet, SegmentState.PENDING);
    store.commitEncoding("quiet", quiet.id(), List.of(), List.of());
    RawTurn b = turn("busy", "s", 0, "still waiting");
    store.appendTurns("busy", "s", List.of(b));
    Segment busy = segment(List.of(b), CloseReason.SESSION_FLUSH);
    store.putSegment(busy, SegmentState.PENDING);
    reopenIfSupported();

    assertThat(store.pendingSegments("ns")).containsExactly(new StoredSegment(first, SegmentState.PENDING, null),
        new StoredSegment(waiting, SegmentState.PENDING, null), new StoredSegment(failed, SegmentState.FAILED, "model timed out"));
    assertThat(store.pendingSegments("ns"))
        .isEqualTo(store.segments("ns").stream().filter(x -> x.state() != SegmentState.ENCODED).toList());
    assertThat(store.pendingSegments("quiet")).isEmpty();
    assertThat(store.pendingSegments("unknown")).isEmpty();
    assertThat(store.pendingSegments("busy")).extracting(x -> x.segment().id()).containsExactly(busy.id());
    assertThat(store.pendingNamespaces()).containsExactlyInAnyOrder("ns", "busy");

    // state changes move segments in and out
    store.commitEncoding("busy", busy.id(), List.of(), List.of());
    store.setSegmentState("ns", encoded.id(), SegmentState.PENDING, "re-encode");
    assertThat(store.pendingNamespaces()).containsExactly("ns");
    assertThat(store.pendingSegments("busy")).isEmpty();
    assertThat(store.pendingSegments("ns")).extracting(x -> x.segment().id())
        .containsExactly(first.id(), encoded.id(), waiting.id(), failed.id());
    store.forget("ns", "s2");
    assertThat(store.pendingSegments("ns")).extracting(x -> x.segment().id()).containsExactly(first.id());
    store.forget("ns");
    assertThat(store.pendingNamespaces()).isEmpty();
  }

  @Test
  void aSegmentSharingATurnWithAStoredOneIsRefused() {
    List<RawTurn> turns = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      if (i != 4) {
        turns.add(turn("ns", "s", i, "turn " + i));
      }
    }
    store.appendTurns("ns", "s", turns);
    store.appendTurns("ns", "t", List.of(turn("ns", "t", 2, "other session")));
    // two writers closed different segments over turns 0..5 (turn 4 is missing: sent late)
    Segment first = segment(turns.subList(0, 5), CloseReason.TARGET_LENGTH);
    Segment rival = segment(turns.subList(0, 3), CloseReason.SEMANTIC_BOUNDARY);
    Segment straddling = segment(turns.subList(3, 7), CloseReason.TARGET_LENGTH);
    assertThat(store.putSegment(first, SegmentState.PENDING)).isTrue();
    assertThat(store.putSegment(rival, SegmentState.PENDING)).as("shares turns 0-2").isFalse();
    assertThat(store.putSegment(straddling, SegmentState.ENCODED)).as("shares turns 3 and 5").isFalse();
    // the same turn index in another session, and a late turn inside the stored range, do not overlap
    assertThat(store.putSegment(segment(List.of(turn("ns", "t", 2, "other session")), CloseReason.SESSION_FLUSH),
        SegmentState.PENDING)).isTrue();
    RawTurn late = turn("ns", "s", 4, "turn 4");
    store.appendTurns("ns", "s", List.of(late));
    Segment lateSegment = segment(List.of(late), CloseReason.LATE_TURNS);
    assertThat(store.putSegment(lateSegment, SegmentState.PENDING)).isTrue();
    Segment rest = segment(turns.subList(5, 9), CloseReason.SESSION_FLUSH);
    assertThat(store.putSegment(rest, SegmentState.PENDING)).isTrue();
    reopenIfSupported();
    assertThat(store.segments("ns")).extracting(x -> x.segment().id())
        .containsExactly(first.id(), lateSegment.id(), rest.id(), "t:2-2");
    assertThat(store.segments("ns")).allSatisfy(x -> assertThat(x.state()).isEqualTo(SegmentState.PENDING));
    assertThat(store.segmentedThrough("ns", "s")).isEqualTo(9);
    assertThat(store.putSegment(segment(List.of(late), CloseReason.LATE_TURNS), SegmentState.ENCODED))
        .as("a retry of a stored segment").isFalse();
    assertThat(store.segments("ns").get(1).state()).isEqualTo(SegmentState.PENDING);
  }

  @Test
  void commitEncodingWritesRecordsNodesAndStateTogether() {
    List<RawTurn> turns = StoreFixtures.turns("ns", "s", 0, 6, new Random(1), "m");
    store.appendTurns("ns", "s", turns);
    Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
    store.putSegment(seg, SegmentState.PENDING);
    MemoryRecord r1 = record("ns", "Nadia went to a choir rehearsal.", TurnRef.of("s", 0));
    MemoryRecord r2 = record("ns", "Rafael paints sunsets.", TurnRef.of("s", 3));
    EvidenceNode n1 = node("ns", NodeKind.ENTITY, "nadia", "Entity: Nadia", List.of(r1.id()), "s", null);
    store.commitEncoding("ns", seg.id(), List.of(r1, r2), List.of(n1));
    reopenIfSupported();
    assertThat(store.segments("ns")).singleElement()
        .satisfies(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
    assertThat(store.records("ns")).containsExactly(r1, r2);
    assertThat(storedNode("ns", n1.id())).contains(n1);
    assertThat(store.searchText("ns", TextField.RECORDS, "sunsets", 3)).extracting(ScoredId::id)
        .containsExactly(r2.id());
  }

  @Test
  void commitEncodingOfAnUnknownSegmentWritesNothing() {
    MemoryRecord r = record("ns", "Nothing should land.", TurnRef.of("s", 0));
    assertThatThrownBy(() -> store.commitEncoding("ns", "s:0-3", List.of(r), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.records("ns")).isEmpty();
    assertThat(store.searchText("ns", TextField.RECORDS, "land", 3)).isEmpty();
  }

  @Test
  void commitEncodingWithNothingExtractedStillMarksEncoded() {
    List<RawTurn> turns = StoreFixtures.turns("ns", "s", 0, 2, new Random(2), "m");
    store.appendTurns("ns", "s", turns);
    Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
    store.putSegment(seg, SegmentState.FAILED);
    store.setSegmentState("ns", seg.id(), SegmentState.FAILED, "boom");
    store.commitEncoding("ns", seg.id(), List.of(), List.of());
    assertThat(store.segments("ns").get(0)).isEqualTo(new StoredSegment(seg, SegmentState.ENCODED, null));
  }
}
