package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.Fixtures.entityNode;
import static dev.lychee.store.lucene.Fixtures.record;
import static dev.lychee.store.lucene.Fixtures.segment;
import static dev.lychee.store.lucene.Fixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TurnRef;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turns, records and node links read by id come from decoded copies kept per index segment
 * ({@link SegmentCopies}, docs/defaults.md §3.3): a copy outlives the reader that built it, so
 * what it answers must follow every later write: a merged record or node is read as merged, a
 * forgotten session's values are gone, and a copy taken before a write is not what a later read
 * returns. Each read below comes after an earlier read that built the copies it could go stale in.
 */
class LuceneSegmentCopiesTest {
  private static final String NS = "alice";
  private static final String S = "s1";
  private static final String OTHER = "s2";
  private static final String TEXT = "Nadia went to the community choir rehearsal.";

  @TempDir Path dir;
  LuceneRecordStore store;

  @BeforeEach
  void open() {
    store = new LuceneRecordStore(dir, TestConfigs.FAST);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** A pending segment of two turns from {@code from} in {@code session}. */
  private Segment pending(String session, int from) {
    List<RawTurn> t = turns(NS, session, from, 2);
    store.appendTurns(NS, session, t);
    Segment seg = segment(t);
    store.putSegment(seg, SegmentState.PENDING);
    return seg;
  }

  @Test
  void aRecordMergedAfterItsCopyWasTakenIsReadAsMerged() {
    Segment first = pending(S, 0);
    Segment second = pending(S, 2);
    MemoryRecord a = record(NS, S, TEXT, 0, 1);
    EvidenceNode node = entityNode(NS, "nadia", S, a.id());
    store.commitEncoding(NS, first.id(), List.of(a), List.of(node));
    assertThat(store.records(NS, List.of(a.id())).get(0).evidence()).hasSize(2);
    assertThat(store.nodeRecordIds(NS, List.of(node.id())).get(node.id())).containsExactly(a.id());

    // the same statement again: the stored record and node are rewritten (merged) in a new segment,
    // and the documents the copies were taken from are deleted
    store.commitEncoding(NS, second.id(), List.of(record(NS, S, TEXT, 2, 3)),
        List.of(entityNode(NS, "nadia", S, a.id(), "other")));

    assertThat(store.records(NS, List.of(a.id())).get(0).evidence())
        .containsExactly(TurnRef.of(S, 0), TurnRef.of(S, 1), TurnRef.of(S, 2), TurnRef.of(S, 3));
    assertThat(store.nodeRecordIds(NS, List.of(node.id())).get(node.id())).containsExactly(a.id(), "other");
  }

  @Test
  void aForgottenSessionIsNotReadFromACopyTakenBefore() {
    Segment kept = pending(S, 0);
    Segment dropped = pending(OTHER, 0);
    MemoryRecord keep = record(NS, S, TEXT, 0, 1);
    MemoryRecord drop = record(NS, OTHER, "Nadia sold her old bicycle.", 0, 1);
    // one commit: both records in one index segment, which outlives the forget (a segment whose
    // documents are all deleted is dropped whole, and its copy with it)
    store.commitEncoding(NS, kept.id(), List.of(keep, drop), List.of());
    store.setSegmentState(NS, dropped.id(), SegmentState.ENCODED, null);
    List<TurnRef> refs = List.of(TurnRef.of(S, 0), TurnRef.of(OTHER, 0), TurnRef.of(OTHER, 1));
    assertThat(store.turns(NS, refs)).hasSize(3);
    assertThat(store.records(NS, List.of(keep.id(), drop.id()))).hasSize(2);
    assertThat(store.segmentCopies()).isPositive();

    store.forget(NS, OTHER);

    assertThat(store.turns(NS, refs)).extracting(RawTurn::ref).containsExactly(TurnRef.of(S, 0));
    assertThat(store.records(NS, List.of(keep.id(), drop.id()))).extracting(MemoryRecord::id)
        .containsExactly(keep.id());
  }

  @Test
  void turnsAppendedAfterACopyWasTakenAreRead() {
    store.appendTurns(NS, S, turns(NS, S, 0, 2));
    assertThat(store.turns(NS, List.of(TurnRef.of(S, 0), TurnRef.of(S, 2)))).hasSize(1);
    store.appendTurns(NS, S, turns(NS, S, 2, 2));
    assertThat(store.turns(NS, List.of(TurnRef.of(S, 0), TurnRef.of(S, 2), TurnRef.of(S, 3))))
        .extracting(RawTurn::ref).containsExactly(TurnRef.of(S, 0), TurnRef.of(S, 2), TurnRef.of(S, 3));
    // another namespace holds none of them, whatever the copies of the same segments hold
    assertThat(store.turns("bob", List.of(TurnRef.of(S, 0)))).isEmpty();
  }

  @Test
  void copiesAreReadAgainAfterReopeningTheStore() {
    Segment first = pending(S, 0);
    MemoryRecord a = record(NS, S, TEXT, 0, 1);
    store.commitEncoding(NS, first.id(), List.of(a), List.of());
    assertThat(store.records(NS, List.of(a.id()))).hasSize(1);
    store.close();
    store = new LuceneRecordStore(dir, TestConfigs.FAST);
    assertThat(store.segmentCopies()).isZero();
    assertThat(store.records(NS, List.of(a.id()))).extracting(MemoryRecord::id).containsExactly(a.id());
    assertThat(store.turns(NS, List.of(TurnRef.of(S, 1)))).hasSize(1);
  }
}
