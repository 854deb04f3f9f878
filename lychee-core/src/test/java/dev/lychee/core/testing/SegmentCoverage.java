package dev.lychee.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.RecordStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** What several writers of one session must leave behind once every one of them flushed. */
public final class SegmentCoverage {
  private SegmentCoverage() {}

  /**
   * Every stored turn of the session lies in exactly one stored segment, closed by a segmenter that
   * saw it in order (the writers send no late turns), every segment is encoded, and (when
   * {@code encodings} counts the encoder's calls per segment id) each was encoded once.
   */
  public static void assertEachTurnInOneEncodedSegment(RecordStore store, String namespace, String session,
      Map<String, AtomicInteger> encodings) {
    List<StoredSegment> segments = store.segments(namespace).stream()
        .filter(s -> s.segment().session().equals(session)).toList();
    List<Integer> covered = new ArrayList<>();
    segments.forEach(s -> s.segment().turns().forEach(t -> covered.add(t.index())));
    assertThat(covered).as("turn indices of the stored segments, in order")
        .containsExactlyElementsOf(store.turns(namespace, session).stream().map(RawTurn::index).toList());
    assertThat(segments).allSatisfy(s -> assertThat(s.state()).as(s.segment().id()).isEqualTo(SegmentState.ENCODED));
    // no turn was sent late: a late-turn segment means a writer skipped turns and found them again
    assertThat(segments).extracting(s -> s.segment().reason()).doesNotContain(CloseReason.LATE_TURNS);
    if (encodings != null) {
      assertThat(encodings.keySet()).containsExactlyInAnyOrderElementsOf(
          segments.stream().map(s -> s.segment().id()).toList());
      assertThat(encodings).allSatisfy((id, n) -> assertThat(n.get()).as("encodings of %s", id).isEqualTo(1));
    }
  }
}
