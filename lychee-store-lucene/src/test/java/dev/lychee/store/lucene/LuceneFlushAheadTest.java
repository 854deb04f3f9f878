package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lazy reopen writes the writer's buffered changes into a segment before it takes the write lock
 * (the flush ahead), and under the lock only opens readers on them: the files of the segment a
 * reopen flushes are written by the reopening thread without the write lock. What a reader sees is
 * unchanged: a caller that wrote and then reads sees its own write, while other threads write.
 */
class LuceneFlushAheadTest {
  @TempDir Path dir;

  private static Document doc(String id) {
    Document d = new Document();
    d.add(new StringField("id", id, Field.Store.NO));
    return d;
  }

  /** Records, for each file the watched thread creates, whether it held the index's write lock. */
  private static final class Watched extends FilterDirectory {
    final AtomicReference<LuceneIndex> index = new AtomicReference<>();
    final List<Boolean> underLock = new CopyOnWriteArrayList<>();
    volatile Thread watched;

    Watched(Directory in) {
      super(in);
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
      note();
      return super.createOutput(name, context);
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
      note();
      return super.createTempOutput(prefix, suffix, context);
    }

    private void note() {
      LuceneIndex i = index.get();
      if (i != null && Thread.currentThread() == watched) {
        underLock.add(i.holdsWriteLock());
      }
    }
  }

  /** An index that reads on refresh, over a {@link Watched} directory handed back in {@code dirRef}. */
  private LuceneIndex openWatched(AtomicReference<Watched> dirRef) {
    LuceneStoreConfig config = TestConfigs.FAST.toBuilder().refreshOnRead(true).build();
    LuceneIndex index = new LuceneIndex(dir, new StandardAnalyzer(), config, d -> {
      Watched w = new Watched(d);
      dirRef.set(w);
      return w;
    });
    dirRef.get().index.set(index);
    return index;
  }

  @Test
  void aReadAfterWritesFlushesTheirSegmentWithoutTheWriteLock() {
    AtomicReference<Watched> dirRef = new AtomicReference<>();
    try (LuceneIndex index = openWatched(dirRef)) {
      Watched files = dirRef.get();
      for (int i = 0; i < 5; i++) {
        String id = "d" + i;
        index.writeDeferred((w, s) -> {
          w.addDocument(doc(id));
          return null;
        });
        files.watched = Thread.currentThread();
        int docs = index.read(s -> s.getIndexReader().numDocs());
        files.watched = null;
        assertThat(docs).as("read-your-writes after write %d", i).isEqualTo(i + 1);
      }
      // the reads flushed a segment each, and none of its files was written under the lock
      assertThat(files.underLock).isNotEmpty().containsOnly(false);
    }
  }

  @Test
  void aWriteThatChecksEarlierWritesFlushesThemWithoutTheWriteLock() {
    AtomicReference<Watched> dirRef = new AtomicReference<>();
    try (LuceneIndex index = openWatched(dirRef)) {
      Watched files = dirRef.get();
      for (int i = 0; i < 4; i++) {
        String id = "d" + i;
        index.writeDeferred((w, s) -> {
          w.addDocument(doc(id));
          return null;
        });
        files.watched = Thread.currentThread();
        // a durable write whose work reads what the deferred one left: the searchers are reopened
        // first (its own change is a deletion, which writes no file under the lock itself)
        int seen = index.write((w, s) -> {
          int n = s.getIndexReader().numDocs();
          w.deleteDocuments(new Term("id", "none"));
          return n;
        });
        files.watched = null;
        assertThat(seen).as("the work saw the write before it").isEqualTo(i + 1);
      }
      assertThat(files.underLock).isNotEmpty().containsOnly(false);
    }
  }

  @Test
  void eachAppenderReadsItsOwnTurnsWhileOthersAppendAndSegment() throws Exception {
    LuceneStoreConfig config = TestConfigs.FAST.toBuilder().refreshOnRead(true).build();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try (LuceneRecordStore store = new LuceneRecordStore(dir.resolve("records"), config)) {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        String session = "s" + w;
        done.add(pool.submit(() -> {
          List<RawTurn> turns = Fixtures.turns("ns", session, 0, 30);
          for (int i = 0; i < turns.size(); i++) {
            RawTurn t = turns.get(i);
            assertThat(store.appendTurns("ns", session, List.of(t))).containsExactly(t);
            // this caller's own turn, read by ref, by window and by listing, right after its append
            assertThat(store.turns("ns", List.of(t.ref()))).containsExactly(t);
            assertThat(store.turns("ns", session, i, i)).containsExactly(t);
            assertThat(store.turns("ns", session)).hasSize(i + 1);
            if (i % 5 == 4) {
              assertThat(store.putSegment(Fixtures.segment(turns.subList(i - 4, i + 1)), SegmentState.PENDING))
                  .isTrue();
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(2, TimeUnit.MINUTES);
      }
      assertThat(store.countTurns("ns")).isEqualTo(90);
      assertThat(store.segments("ns")).hasSize(18);
    } finally {
      pool.shutdownNow();
    }
  }
}
