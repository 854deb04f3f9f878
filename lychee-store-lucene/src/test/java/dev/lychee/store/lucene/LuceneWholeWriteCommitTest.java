package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.Fixtures.entityNode;
import static dev.lychee.store.lucene.Fixtures.record;
import static dev.lychee.store.lucene.Fixtures.twoPendingSegments;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment's encoding is several documents in one logged write (since round twenty-one one writer
 * call, {@link DocumentBlock}, which holds no commit lock): a commit that runs outside the write lock
 * while it is under way must hold all of it or none, or a crash after that commit would bring back an
 * ENCODED segment without its records (round nineteen left this untested; round twenty). The commit
 * is let go while the writer has taken the state change and not the records.
 */
class LuceneWholeWriteCommitTest {
  private static final String NS = "alice";
  private static final String S = "s1";

  @TempDir Path dir;

  @Test
  void aCommitBegunBeforeAnEncodingsWriteHoldsNoneOrAllOfIt() throws Exception {
    LuceneStoreConfig config = TestConfigs.FAST.toBuilder().deferredCommit(Duration.ofMinutes(10)).build();
    try (LuceneRecordStore store = new LuceneRecordStore(dir, config)) {
      List<Segment> pending = twoPendingSegments(store, NS, S);
      Segment first = pending.get(0);
      Segment second = pending.get(1);
      MemoryRecord r = record(NS, S, "Nadia sang at the rehearsal.", 2, 3);

      CountDownLatch commitBegun = new CountDownLatch(1);
      CountDownLatch workHalfDone = new CountDownLatch(1);
      CountDownLatch commitDone = new CountDownLatch(1);
      AtomicBoolean held = new AtomicBoolean();
      // a durable write's commit, begun outside the write lock, waits there for the encoding to be
      // half-way (or, when the encoding cannot start before it, for a second)
      store.index().beforeCommit(() -> {
        if (held.compareAndSet(false, true)) {
          commitBegun.countDown();
          await(workHalfDone, 1);
        }
      });
      CompletableFuture<Void> durable = CompletableFuture.runAsync(() -> {
        store.setSegmentState(NS, first.id(), SegmentState.PENDING, "tried once");
        commitDone.countDown();
      });
      assertThat(commitBegun.await(1, TimeUnit.MINUTES)).isTrue();
      // the writer has taken the encoding's state change, not its records yet: let the commit run
      // now (it waits for the writer call, which waits here for a while)
      AtomicBoolean once = new AtomicBoolean();
      store.duringEncodingWrite(() -> {
        if (once.compareAndSet(false, true)) {
          workHalfDone.countDown();
          await(commitDone, 2);
        }
      });
      store.commitEncoding(NS, second.id(), List.of(r), List.of(entityNode(NS, "nadia", S, r.id())));
      durable.get(1, TimeUnit.MINUTES);

      try (FSDirectory fs = FSDirectory.open(dir); DirectoryReader committed = DirectoryReader.open(fs)) {
        IndexSearcher searcher = new IndexSearcher(committed);
        Optional<Document> segmentDoc =
            Hits.byKey(searcher, StoreFields.uid(StoreFields.KIND_SEGMENT, NS, second.id()));
        boolean encoded = segmentDoc.map(d -> JsonCodec.segment(Hits.json(d)).state())
            .orElseThrow() == SegmentState.ENCODED;
        boolean recordThere =
            Hits.byKey(searcher, StoreFields.uid(StoreFields.KIND_RECORD, NS, r.id())).isPresent();
        assertThat(recordThere).as("the last commit holds the encoding's records exactly when it holds its state")
            .isEqualTo(encoded);
      }
      assertThat(store.records(NS)).extracting(MemoryRecord::id).containsExactly(r.id());
    }
  }

  private static void await(CountDownLatch latch, int seconds) {
    try {
      latch.await(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
