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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code commitEncoding} prepares its merge plan before the write lock (docs/defaults.md §3.3): when
 * another records write lands between the preparation and the write, the plan is made again, so no
 * merge is lost and new records keep their commit order.
 */
class LucenePreparedEncodingTest {
  private static final String NS = "alice";
  private static final String S = "s1";
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

  /** A pending segment of two turns from {@code from}. */
  private Segment pending(int from) {
    List<RawTurn> t = turns(NS, S, from, 2);
    store.appendTurns(NS, S, t);
    Segment seg = segment(t);
    store.putSegment(seg, SegmentState.PENDING);
    return seg;
  }

  @Test
  void aRecordsWriteBetweenPreparationAndWriteIsMergedNotLost() {
    Segment first = pending(0);
    Segment second = pending(2);
    Segment third = pending(4);
    MemoryRecord a = record(NS, S, TEXT, 0, 1);
    MemoryRecord b = record(NS, S, TEXT, 2, 3);
    MemoryRecord c = record(NS, S, TEXT, 4, 5);
    EvidenceNode na = entityNode(NS, "nadia", S, a.id());
    store.commitEncoding(NS, first.id(), List.of(a), List.of(na));

    // the third segment's plan is made on a view holding a only; b is merged in before it writes
    AtomicBoolean once = new AtomicBoolean();
    store.afterEncodingPrepared(() -> {
      if (once.compareAndSet(false, true)) {
        store.commitEncoding(NS, second.id(), List.of(b), List.of(entityNode(NS, "nadia", S, b.id(), "other")));
      }
    });
    store.commitEncoding(NS, third.id(), List.of(c), List.of(entityNode(NS, "nadia", S, c.id(), "third")));

    MemoryRecord stored = store.records(NS, List.of(a.id())).get(0);
    assertThat(stored.evidence()).containsExactly(
        TurnRef.of(S, 0), TurnRef.of(S, 1), TurnRef.of(S, 2), TurnRef.of(S, 3), TurnRef.of(S, 4), TurnRef.of(S, 5));
    assertThat(store.nodeRecordIds(NS, List.of(na.id())).get(na.id())).containsExactly(a.id(), "other", "third");
    assertThat(store.segments(NS)).allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
  }

  @Test
  void newRecordsTakeTheirPlaceInCommitOrderWhenAnotherWriteCameFirst() {
    Segment first = pending(0);
    Segment second = pending(2);
    MemoryRecord late = record(NS, S, "A record prepared first and written second.", 0, 1);
    MemoryRecord early = record(NS, S, "A record prepared second and written first.", 2, 3);
    store.afterEncodingPrepared(new Runnable() {
      boolean ran;

      @Override
      public void run() {
        if (!ran) {
          ran = true;
          store.commitEncoding(NS, second.id(), List.of(early), List.of());
        }
      }
    });
    store.commitEncoding(NS, first.id(), List.of(late), List.of());
    assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(early.id(), late.id());
    store.close();
    store = new LuceneRecordStore(dir, TestConfigs.FAST);
    assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(early.id(), late.id());
  }

  @Test
  void withoutAWriteInBetweenThePreparedPlanIsWhatIsStored() {
    Segment first = pending(0);
    Segment second = pending(2);
    MemoryRecord a = record(NS, S, TEXT, 0, 1);
    MemoryRecord b = record(NS, S, TEXT, 2, 3);
    MemoryRecord other = record(NS, S, "Another statement.", 2);
    store.commitEncoding(NS, first.id(), List.of(a), List.of());
    store.commitEncoding(NS, second.id(), List.of(b, other), List.of());
    assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(a.id(), other.id());
    assertThat(store.records(NS, List.of(a.id())).get(0).evidence()).hasSize(4);
  }
}
